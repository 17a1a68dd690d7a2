import Foundation
import SDLProtocol
import SDLSpec

/// Reading and writing the managers' declarations (screen, menu, voice commands) as JSON, as
/// strictly as any body: an unknown member or a value of the wrong type is a 422 naming its path.
enum ManagerDeclaration {
    /// `json` as a `Value`, after the caller's list of unknown members (each an issue) is empty.
    /// A `null` anywhere is refused too: a member is left out, not nulled (a PATCH's nulls are
    /// applied before this).
    static func decode<Value: Decodable>(_ type: Value.Type, from json: SDLJSON, unknownMembers: [String]) throws(GatewayError) -> Value {
        let issues = unknownMembers + nulls(in: json, at: "$")
        if let first = issues.first { throw GatewayError(.invalidParameters, first, issues: issues) }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(json.serializedBytes()))
        } catch let DecodingError.typeMismatch(type, context), let DecodingError.valueNotFound(type, context) {
            let issue = "\(path(context.codingPath)): expected \(describe(type))"
            throw GatewayError(.invalidParameters, issue, issues: [issue])
        } catch let DecodingError.keyNotFound(key, context) {
            let issue = "\(path(context.codingPath + [key])): is required"
            throw GatewayError(.invalidParameters, issue, issues: [issue])
        } catch {
            throw GatewayError(.invalidParameters, "the declaration does not decode: \(error)")
        }
    }

    /// A declaration as its JSON resource.
    static func json(_ value: some Encodable) -> SDLJSON {
        guard let data = try? JSONEncoder().encode(value), let json = try? SDLJSON.parse([UInt8](data)) else { return [:] }
        return json
    }

    /// An issue for each `null` in `json`.
    static func nulls(in json: SDLJSON, at path: String) -> [String] {
        if json == .null { return ["\(path): null is not a value here; leave the member out"] }
        if let members = json.objectValue {
            return members.keys.sorted().flatMap { nulls(in: members[$0] ?? .null, at: "\(path).\($0)") }
        }
        if let elements = json.arrayValue {
            return elements.enumerated().flatMap { nulls(in: $0.element, at: "\(path)[\($0.offset)]") }
        }
        return []
    }

    /// An issue for each member of `members` not in `allowed`.
    static func unknown(_ members: [String: SDLJSON], allowed: Set<String>, at path: String) -> [String] {
        members.keys.filter { !allowed.contains($0) }.sorted().map {
            "\(path).\($0): unknown member\(SDLSpelling.didYouMean($0, among: allowed)); expected one of \(allowed.sorted().joined(separator: ", "))"
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("$") { path, key in key.intValue.map { "\(path)[\($0)]" } ?? "\(path).\(key.stringValue)" }
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is [String].Type: "an array of strings"
        default: "a \(type)".replacingOccurrences(of: "Array<", with: "array of ").replacingOccurrences(of: ">", with: "")
        }
    }
}
