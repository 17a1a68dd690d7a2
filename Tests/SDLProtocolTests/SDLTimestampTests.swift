import SDLProtocol
import Testing

@Suite("RFC 3339 timestamps with milliseconds")
struct SDLTimestampTests {
    @Test("Golden values: the epoch, leap days, centuries, before 1970, and truncation (never rounding into the next second)", arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (1_795_573_800_123_456, "2026-11-25T02:30:00.123Z"),
        (951_782_400_000_000, "2000-02-29T00:00:00.000Z"),
        (4_107_542_399_999_999, "2100-02-28T23:59:59.999Z"),
        (4_107_542_400_000_000, "2100-03-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-86_400_000_000, "1969-12-31T00:00:00.000Z"),
        (-2_208_988_800_000_000, "1900-01-01T00:00:00.000Z"),
        (253_402_300_799_999_999, "9999-12-31T23:59:59.999Z"),
        (253_402_300_800_000_000, "9999-12-31T23:59:59.999Z"),
        (-62_167_219_200_000_001, "0000-01-01T00:00:00.000Z"),
    ])
    func golden(microseconds: Int64, expected: String) {
        #expect(SDLTimestamp.rfc3339(microsecondsSince1970: microseconds) == expected)
    }

    @Test("Seconds as a Double: truncated to the millisecond; not finite or out of range gives an end of the range")
    func seconds() {
        #expect(SDLTimestamp.rfc3339(secondsSince1970: 1_795_573_800.1239) == "2026-11-25T02:30:00.123Z")
        #expect(SDLTimestamp.rfc3339(secondsSince1970: -0.0005) == "1969-12-31T23:59:59.999Z")
        #expect(SDLTimestamp.rfc3339(secondsSince1970: .infinity) == "9999-12-31T23:59:59.999Z")
        #expect(SDLTimestamp.rfc3339(secondsSince1970: -.infinity) == "0000-01-01T00:00:00.000Z")
    }

    @Test("Every day of 400 years (a whole Gregorian cycle) follows the one before it")
    func consecutiveDays() {
        var previous = SDLTimestamp.rfc3339(microsecondsSince1970: 0)
        for day in Int64(1)...146_097 {
            let text = SDLTimestamp.rfc3339(microsecondsSince1970: day * 86_400_000_000)
            #expect(text > previous, "\(text) after \(previous)")
            let (month, date) = (Int(text.dropFirst(5).prefix(2))!, Int(text.dropFirst(8).prefix(2))!)
            #expect((1...12).contains(month) && (1...31).contains(date))
            previous = text
        }
    }
}
