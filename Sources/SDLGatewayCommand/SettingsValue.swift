import ArgumentParser
import SDLProtocol
import SDLSpec

/// Checks the text of a setting from the environment against what it accepts, for `serve` and
/// `simulate`: booleans, enumerated values and the names of the variables themselves. A mistake
/// stops start-up with a `ValidationError` naming the variable and what it accepts, instead of
/// falling back to a default.
enum SettingsValue {
    static let trueSpellings: Set<String> = ["1", "true", "yes", "on"]
    static let falseSpellings: Set<String> = ["0", "false", "no", "off"]
    /// How the messages list the boolean spellings.
    static let booleanSpellings = "1/0, true/false, yes/no or on/off (any case)"

    /// The boolean in `variable`, nil when it is not set.
    static func bool(_ environment: [String: String], _ variable: String) throws -> Bool? {
        guard let text = environment[variable] else { return nil }
        let spelling = text.lowercased()
        if trueSpellings.contains(spelling) { return true }
        if falseSpellings.contains(spelling) { return false }
        throw ValidationError("\(variable)=\(text) is not a boolean: use \(booleanSpellings).")
    }

    /// The value of `variable` among the cases of `Value` (compared without case), nil when it is not set.
    static func choice<Value: RawRepresentable & CaseIterable>(
        _ environment: [String: String], _ variable: String, of type: Value.Type = Value.self
    ) throws -> Value? where Value.RawValue == String {
        guard let text = environment[variable] else { return nil }
        let spelling = text.lowercased()
        if let value = Value.allCases.first(where: { $0.rawValue.lowercased() == spelling }) { return value }
        let accepted = Value.allCases.map(\.rawValue)
        throw ValidationError(
            "\(variable)=\(text) is not one of \(accepted.joined(separator: ", "))\(suggestion(for: text, among: accepted)).")
    }

    /// A whole-number setting: the option, else the environment `variable`, else the config file's
    /// `key` (spelt `keyPath` in messages), else `value`; one outside `range` stops start-up with a
    /// message naming all three spellings.
    static func wholeNumber(
        _ option: Int?, flag: String, variable: String, environment: [String: String], key: String, keyPath: String,
        file: [String: SDLJSON]?,
        unit: String, short: String, default value: Int, in range: ClosedRange<Int>
    ) throws -> Int {
        let fromEnvironment = try environment[variable].map { text in
            guard let number = Int(text) else { throw ValidationError("\(variable)=\(text) is not a whole number of \(unit).") }
            return number
        }
        let fromFile = try file?[key].map { value in
            guard let number = value.intValue else { throw ServeConfigFile.wrongType(keyPath, "a whole number of \(unit)", value) }
            return Int(clamping: number)
        }
        let number = option ?? fromEnvironment ?? fromFile ?? value
        guard range.contains(number) else {
            throw ValidationError(
                "\(flag) (\(variable), \"\(keyPath)\") must be \(range.lowerBound)…\(range.upperBound) \(short) (got \(number)).")
        }
        return number
    }

    /// Refuses a variable with `prefix` that is not in `known`: a misspelt name would otherwise be ignored.
    static func checkVariables(_ environment: [String: String], prefix: String, known: [String]) throws {
        let unknown = environment.keys.filter { $0.hasPrefix(prefix) && !known.contains($0) }.sorted()
        guard let name = unknown.first else { return }
        throw ValidationError(
            "\(name) is not a setting\(suggestion(for: name, among: known)); the \(prefix)* variables are \(known.joined(separator: ", "))."
        )
    }

    /// Refuses a key of the config file that is not in `accepted`, e.g. `config file: unknown key
    /// "limits.requestPerSecond" (did you mean requestsPerSecond?); limits accepts bodySize, …`.
    /// `section` is nil at the top level.
    static func checkKeys(_ keys: some Sequence<String>, accepted: [String], in section: String?) throws {
        guard let key = keys.filter({ !accepted.contains($0) }).sorted().first else { return }
        let path = section.map { "\($0).\(key)" } ?? key
        throw ValidationError(
            "config file: unknown key \"\(path)\"\(suggestion(for: key, among: accepted)); \(section ?? "the top level") accepts \(accepted.joined(separator: ", "))."
        )
    }

    /// ` (did you mean NAME?)` for the accepted name closest to `text`, or nothing when none is
    /// close: the spelling the HTTP API's errors use (``SDLSpelling``), so both say it alike.
    static func suggestion(for text: String, among accepted: [String]) -> String {
        SDLSpelling.didYouMean(text, among: accepted)
    }
}
