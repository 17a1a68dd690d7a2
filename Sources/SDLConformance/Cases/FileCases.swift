import SDLClient
import SDLProtocol

/// Files and capabilities: PutFile (bigger than one frame), ListFiles, SetAppIcon, DeleteFile,
/// GetSystemCapability (MOBILE_API.xml 8.0.0; docs/protocol.md §c "PutFile with bulk data").
enum FileCases {
    static let all = [putFile, listFiles, setAppIcon, deleteFile, systemCapability]

    /// 150,000 bytes: more than Core's 131,072-byte MTU, so the PutFile goes in several frames.
    static let bigFile: [UInt8] = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    /// A 1×1 PNG, for the icon.
    static let icon: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
        0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63,
        0x60, 0x60, 0x60, 0xF8, 0x0F, 0x00, 0x01, 0x04, 0x01, 0x00, 0x5F, 0xE5, 0xC3, 0x4B, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44,
        0xAE, 0x42, 0x60, 0x82,
    ]

    static func put(_ context: ConformanceContext, _ name: String, _ bytes: [UInt8], type: String = "BINARY") async throws -> SDLJSON {
        try await context.request(
            "PutFile", ["syncFileName": .string(name), "fileType": .string(type), "persistentFile": false], bulkData: bytes,
            timeout: .seconds(20))
    }

    static func list(_ context: ConformanceContext) async throws -> [String] {
        let response = try await context.request("ListFiles")
        return (response["filenames"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// PutFile of 150,000 bytes in one request, several frames: SUCCESS.
    static let putFile = ConformanceCase("file.put", "PutFile of 150 kB (several frames)", deadline: .seconds(25)) { context in
        try await context.activate()
        _ = try await put(context, "sdl-check-big.bin", bigFile)
        try await context.request("DeleteFile", ["syncFileName": "sdl-check-big.bin"])
    }

    /// ListFiles after a PutFile: the name is listed.
    static let listFiles = ConformanceCase("file.list", "ListFiles lists a put file") { context in
        try await context.activate()
        _ = try await put(context, "sdl-check-list.bin", Array(bigFile.prefix(1000)))
        let names = try await list(context)
        try context.expect(
            names.contains("sdl-check-list.bin"), "ListFiles lacks the put file", expected: "sdl-check-list.bin listed",
            got: names.isEmpty ? "no files" : names.joined(separator: ", "))
        try await context.request("DeleteFile", ["syncFileName": "sdl-check-list.bin"])
    }

    /// SetAppIcon of a PNG put before: SUCCESS.
    static let setAppIcon = ConformanceCase("file.appicon", "SetAppIcon of a put PNG") { context in
        try await context.activate()
        _ = try await put(context, "sdl-check-icon.png", icon, type: "GRAPHIC_PNG")
        try await context.request("SetAppIcon", ["syncFileName": "sdl-check-icon.png"])
    }

    /// DeleteFile: SUCCESS and the name gone from ListFiles; again: REJECTED.
    static let deleteFile = ConformanceCase("file.delete", "DeleteFile, then of a deleted file: REJECTED") { context in
        try await context.activate()
        _ = try await put(context, "sdl-check-gone.bin", Array(bigFile.prefix(100)))
        try await context.request("DeleteFile", ["syncFileName": "sdl-check-gone.bin"])
        let names = try await list(context)
        try context.expect(
            !names.contains("sdl-check-gone.bin"), "ListFiles still lists the deleted file", expected: "sdl-check-gone.bin not listed",
            got: names.joined(separator: ", "))
        try await context.request("DeleteFile", ["syncFileName": "sdl-check-gone.bin"], expect: ["REJECTED"])
    }

    /// GetSystemCapability DISPLAYS: SUCCESS with a `displayCapabilities` array naming a display.
    static let systemCapability = ConformanceCase("capability.displays", "GetSystemCapability DISPLAYS") { context in
        try await context.activate()
        let response = try await context.request("GetSystemCapability", ["systemCapabilityType": "DISPLAYS"])
        let capability = response["systemCapability"]
        try context.expect(
            "systemCapability.systemCapabilityType", capability?["systemCapabilityType"]?.stringValue, equals: "DISPLAYS")
        let displays = capability?["displayCapabilities"]?.arrayValue ?? []
        try context.expect(!displays.isEmpty, "no displayCapabilities", expected: "at least one display", got: "none")
    }
}
