import Foundation
import SDLManagers
import SDLProtocol

/// The `screen` resource's JSON: read as strictly as any body (an unknown member or a value of
/// the wrong type is a 422 naming its path), written back as declared, and patched by RFC 7396
/// JSON merge patches.
enum ScreenDeclaration {
    static let screenMembers: Set<String> = [
        "template", "title", "textFields", "mediaTrack", "alignment", "primaryGraphic", "secondaryGraphic", "softButtons",
    ]
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
        return try ManagerDeclaration.decode(SDLScreen.self, from: json, unknownMembers: issues)
    }

    static let mediaMembers: Set<String> = ["track", "artist", "album", "artwork", "clock"]
    static let clockMembers: Set<String> = ["position", "duration", "state"]

    /// The declared media state in `json`: `{track, artist, album, artwork, clock: {position,
    /// duration, state}}` (seconds; PLAYING, PAUSED or STOPPED).
    static func media(from json: SDLJSON) throws(GatewayError) -> SDLMedia {
        guard let members = json.objectValue else { throw GatewayError(.invalidBody, "the media state must be a JSON object") }
        var issues = unknown(members, allowed: mediaMembers, at: "$")
        if let clock = members["clock"]?.objectValue { issues += unknown(clock, allowed: clockMembers, at: "$.clock") }
        let media = try ManagerDeclaration.decode(SDLMedia.self, from: json, unknownMembers: issues)
        if let clock = media.clock, !(0...215_999).contains(clock.position) || !(0...215_999).contains(clock.duration ?? 0) {
            throw GatewayError(
                .invalidParameters,
                "$.clock: position and duration are seconds from 0 to 215999 (SetMediaClockTimer's StartTime goes to 59:59:59)")
        }
        return media
    }

    /// The screen as its JSON resource.
    static func json(_ screen: SDLScreen) -> SDLJSON { ManagerDeclaration.json(screen) }

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
        ManagerDeclaration.unknown(members, allowed: allowed, at: path)
    }
}
