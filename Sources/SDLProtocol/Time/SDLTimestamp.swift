/// RFC 3339 timestamps in UTC with milliseconds, `2026-11-22T05:00:00.123Z`: the one format of the
/// gateway's event times, JSON log lines and capture records (`sdl-gateway inspect`).
///
/// Computed from microseconds since 1970 with integer arithmetic (the proleptic Gregorian
/// calendar, days-to-civil), so it needs no formatter, no time zone database and no lock, and the
/// milliseconds are truncated, never rounded up into the next second.
public enum SDLTimestamp {
    /// `microseconds` since 1970-01-01T00:00:00Z (negative before it) as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    /// Years outside 0...9999 are clamped to that range's ends.
    public static func rfc3339(microsecondsSince1970 microseconds: Int64) -> String {
        let millis = floorDivide(microseconds, 1000)
        let days = floorDivide(millis, 86_400_000)
        let millisOfDay = millis - days * 86_400_000
        let (year, month, day) = civil(days: days)
        guard (0...9999).contains(year) else {
            return year < 0 ? "0000-01-01T00:00:00.000Z" : "9999-12-31T23:59:59.999Z"
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8((value / divisor) % 10))
                divisor /= 10
            }
        }
        digits(year, 4); bytes.append(UInt8(ascii: "-"))
        digits(month, 2); bytes.append(UInt8(ascii: "-"))
        digits(day, 2); bytes.append(UInt8(ascii: "T"))
        digits(millisOfDay / 3_600_000, 2); bytes.append(UInt8(ascii: ":"))
        digits(millisOfDay / 60_000 % 60, 2); bytes.append(UInt8(ascii: ":"))
        digits(millisOfDay / 1000 % 60, 2); bytes.append(UInt8(ascii: "."))
        digits(millisOfDay % 1000, 3); bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Seconds since 1970 (a `Date`'s `timeIntervalSince1970`), rounded to the nearest microsecond
    /// (``microseconds(secondsSince1970:)``) and then truncated to milliseconds like every time.
    public static func rfc3339(secondsSince1970 seconds: Double) -> String {
        rfc3339(microsecondsSince1970: microseconds(secondsSince1970: seconds))
    }

    /// Seconds since 1970 as whole microseconds, rounded to the nearest one: a `Date` of
    /// `…00.123` is `…00.12299999…` in binary, which truncation would make `.122`. Not finite or
    /// beyond ±2.9 × 10^5 years, it is a time far outside 0000...9999 on the same side.
    public static func microseconds(secondsSince1970 seconds: Double) -> Int64 {
        let microseconds = (seconds * 1_000_000).rounded(.toNearestOrAwayFromZero)
        guard microseconds.isFinite, abs(microseconds) < 9.2e18 else { return seconds < 0 ? .min / 2 : .max / 2 }
        return Int64(microseconds)
    }

    /// The compact form of ``rfc3339(microsecondsSince1970:)`` for file names, without `-` and
    /// `:`: `20261122T050000.123Z` (ISO 8601 basic format).
    public static func compact(microsecondsSince1970 microseconds: Int64) -> String {
        String(rfc3339(microsecondsSince1970: microseconds).filter { $0 != "-" && $0 != ":" })
    }

    /// Year, month (1–12) and day (1–31) of a count of days since 1970-01-01.
    static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days since 0000-03-01
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153  // March is 0
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
