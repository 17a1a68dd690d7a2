import Foundation
import SDLProtocol
import Testing

@Suite("RFC 3339 timestamps with milliseconds")
struct SDLTimestampTests {
    @Test(
        "Golden values: the epoch, leap days, centuries, before 1970, and truncation (never rounding into the next second)",
        arguments: [
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

    @Test(
        "Seconds are rounded to the microsecond before the milliseconds are cut: 1.001 (1000999.99… µs) is .001, a Date of 0.3 (0.29999995 s once stored since 2001) is .300",
        arguments: [
            (1.001, "1970-01-01T00:00:01.001Z"),
            (Date(timeIntervalSince1970: 0.3).timeIntervalSince1970, "1970-01-01T00:00:00.300Z"),
            (Date(timeIntervalSince1970: 0.001).timeIntervalSince1970, "1970-01-01T00:00:00.001Z"),
            (Date(timeIntervalSince1970: 1_795_000_000.123).timeIntervalSince1970, "2026-11-18T11:06:40.123Z"),
            (1_795_000_000.9999994, "2026-11-18T11:06:40.999Z"),
            (1_795_000_000.9999996, "2026-11-18T11:06:41.000Z"),
            (-0.001, "1969-12-31T23:59:59.999Z"),
        ])
    func secondsRoundToMicroseconds(seconds: Double, expected: String) {
        #expect(SDLTimestamp.rfc3339(secondsSince1970: seconds) == expected)
    }

    @Test("Microseconds of a Date's seconds are the nearest ones; the compact form drops - and :")
    func microsecondsAndCompact() {
        #expect(SDLTimestamp.microseconds(secondsSince1970: 1_795_000_000.123) == 1_795_000_000_123_000)
        #expect(SDLTimestamp.microseconds(secondsSince1970: -0.0000004) == 0)
        #expect(SDLTimestamp.microseconds(secondsSince1970: .nan) == .max / 2)
        #expect(SDLTimestamp.compact(microsecondsSince1970: 1_795_000_000_123_000) == "20261118T110640.123Z")
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
