import Foundation
import SDLManagers
import SDLProtocol

/// The `screen` resource's JSON: read as strictly as any body (an unknown member or a value of
/// the wrong type is a 422 naming its path), written back as declared, and patched by RFC 7396
/// JSON merge patches.
enum ScreenDeclaration {
    static let screenMembers: Set<String> = ["template", "title", "textFields", "mediaTrack", "alignment", "primaryGraphic", "secondaryGraphic", "softButtons"]
    static let buttonMembers: Set<String> = ["id", "states", "state"]
    static let stateMembers: Set<String> = ["name", "text", "image"]

    /// The declared screen in `json`.
    static func screen(from json: SDLJSON) throws(GatewayError) -> SDLScreen {
        guard let members = json.objectValue else { throw GatewayError(.invalidBody, "the screen must be a JSON object") }
        var issues = unknown(members, allowed: screenMembers, at: "$")
        for (index, button) in (members["softButtons"]?.arrayValue ?? []).enumerated() {
            guard let buttonMembers = button.objectValue else { continue }
            issues += unknown(buttonMembers, allowed: Self.buttonMembers, at: "$.softButtons[\(index)]")
            for (stateIndex, state) in (buttonMembers["states"]?.arrayValue ?? []).enumerated() {
                issues += unknown(state.objectValue ?? [:], allowed: stateMembers, at: "$.softButtons[\(index)].states[\(stateIndex)]")
            }
        }
        if let first = issues.first { throw GatewayError(.invalidParameters, first, issues: issues) }
        do {
            return try JSONDecoder().decode(SDLScreen.self, from: Data(json.serializedBytes()))
        } catch let DecodingError.typeMismatch(type, context), let DecodingError.valueNotFound(type, context) {
            let issue = "\(path(context.codingPath)): expected \(describe(type))"
            throw GatewayError(.invalidParameters, issue, issues: [issue])
        } catch let DecodingError.keyNotFound(key, context) {
            let issue = "\(path(context.codingPath + [key])): is required"
            throw GatewayError(.invalidParameters, issue, issues: [issue])
        } catch {
            throw GatewayError(.invalidParameters, "the screen does not decode: \(error)")
        }
    }

    /// The screen as its JSON resource.
    static func json(_ screen: SDLScreen) -> SDLJSON {
        guard let data = try? JSONEncoder().encode(screen), let json = try? SDLJSON.parse([UInt8](data)) else { return [:] }
        return json
    }

    /// RFC 7396: members of an object patch replace the target's (recursively for objects), a
    /// `null` member removes one, any other patch replaces the whole target.
    static func mergePatch(_ target: SDLJSON, _ patch: SDLJSON) -> SDLJSON {
        guard let patchMembers = patch.objectValue else { return patch }
        var members = target.objectValue ?? [:]
        for (key, value) in patchMembers {
            if value == .null {
                members[key] = nil
            } else {
                members[key] = mergePatch(members[key] ?? .null, value)
            }
        }
        return .object(members)
    }

    private static func unknown(_ members: [String: SDLJSON], allowed: Set<String>, at path: String) -> [String] {
        members.keys.filter { !allowed.contains($0) }.sorted().map { "\(path).\($0): unknown member; expected one of \(allowed.sorted().joined(separator: ", "))" }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("$") { path, key in key.intValue.map { "\(path)[\($0)]" } ?? "\(path).\(key.stringValue)" }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is [String].Type: "an array of strings"
        default: "a \(type)".replacingOccurrences(of: "Array<", with: "array of ").replacingOccurrences(of: ">", with: "")
        }
    }
}
