import HeadUnitModel
import NIOCore
import SDLProtocol
import SDLSpec
import Testing

@testable import HeadUnitSimulator

/// Helpers of the file, subscription and audio pass-thru tests.
enum FileSuiteSupport {
    /// A harness with one registered app; in FULL unless `inNone`.
    static func harness(
        inNone: Bool = false, isMedia: Bool = false, timeScale: Double = 1, profile: SimulatorProfile = .default
    ) -> (HeadUnitHarness, ConnectionID, UInt8) {
        var harness = HeadUnitHarness(HeadUnitConfiguration(profile: profile, autoActivate: !inNone, timeScale: timeScale))
        let connection = harness.open()
        let (session, _) = harness.register(isMedia: isMedia, on: connection)
        harness.advance(by: .seconds(1))
        return (harness, connection, session)
    }

    /// Every response and notification on the connection that the spec rejects.
    static func specProblems(_ harness: HeadUnitHarness, on id: ConnectionID) -> [String] {
        var problems: [String] = []
        for case .rpc(_, let rpc) in harness.received[id] ?? [] where rpc.rpcType != .request {
            let name = harness.catalog.functionName(forID: rpc.functionID) ?? "\(rpc.functionID)"
            let type: SDLMessageType = rpc.rpcType == .response ? .response : .notification
            guard let issues = try? harness.catalog.validate(rpc.parameters, function: name, messageType: type) else {
                problems.append("\(name): not in the spec")
                continue
            }
            if !issues.isEmpty { problems.append("\(name): \(issues.map(\.message))") }
        }
        return problems
    }

    static func bytes(_ count: Int, seed: UInt8 = 7) -> ByteBuffer {
        ByteBuffer(bytes: (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    static func profile(quota: Int64) throws -> SimulatorProfile {
        guard case .object(var document) = try SDLJSON.parse(SimulatorProfile.defaultJSON) else { fatalError("profile") }
        document["appDirectoryQuota"] = .int(quota)
        return try SimulatorProfile(json: SDLJSON.object(document).serializedBytes())
    }
}

extension HeadUnitHarness {
    /// Sends PutFile with bulk data; returns the response.
    mutating func putFile(
        _ name: String, _ data: ByteBuffer?, session: UInt8, on id: ConnectionID, extra: [String: SDLJSON] = [:], mtu: Int = 131_072
    ) -> SDLRPCMessage? {
        var params: [String: SDLJSON] = ["syncFileName": .string(name), "fileType": "BINARY"]
        params.merge(extra) { $1 }
        let correlationID = request("PutFile", .object(params), session: session, on: id, bulkData: data, mtu: mtu)
        return response(correlationID, on: id)
    }
}

@Suite("Simulator: files (PutFile, ListFiles, DeleteFile, SetAppIcon)")
struct SimulatorFileTests {
    static let quota = SimulatorProfile.defaultAppDirectoryQuota

    @Test(
        "A multi-frame PutFile is stored; ListFiles lists it (no filenames once empty, as Core); DeleteFile frees the space; an unknown file is REJECTED with spaceAvailable"
    )
    func putListDelete() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        let put = harness.putFile(
            "song.mp3", FileSuiteSupport.bytes(5000), session: session, on: connection, extra: ["fileType": "AUDIO_MP3"], mtu: 1000)
        #expect(put?.resultCode == "SUCCESS")
        #expect(put?.parameters["spaceAvailable"] == .int(Self.quota - 5000))
        let stored = harness.unit.apps[session]?.files["song.mp3"]
        #expect(stored?.bytes == FileSuiteSupport.bytes(5000))
        #expect(stored?.fileType == "AUDIO_MP3")
        #expect(stored?.isPersistent == false && stored?.isSystemFile == false && stored?.isComplete == true)
        let list = harness.call("ListFiles", session: session, on: connection)
        #expect(list?.parameters["filenames"] == ["song.mp3"])
        #expect(list?.parameters["spaceAvailable"] == .int(Self.quota - 5000))
        let delete = harness.call("DeleteFile", ["syncFileName": "song.mp3"], session: session, on: connection)
        #expect(delete?.resultCode == "SUCCESS")
        #expect(delete?.parameters["spaceAvailable"] == .int(Self.quota))
        let empty = harness.call("ListFiles", session: session, on: connection)
        #expect(empty?.resultCode == "SUCCESS")
        #expect(empty?.parameters["filenames"] == nil)
        #expect(empty?.parameters["spaceAvailable"] == .int(Self.quota))
        let again = harness.call("DeleteFile", ["syncFileName": "song.mp3"], session: session, on: connection)
        #expect(again?.resultCode == "REJECTED")
        #expect(again?.success == false)
        #expect(again?.parameters["spaceAvailable"] == .int(Self.quota))
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test("PutFile without bulk data or with a path in its name is INVALID_DATA")
    func invalidPutFile() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        #expect(harness.putFile("a.png", nil, session: session, on: connection)?.resultCode == "INVALID_DATA")
        #expect(harness.putFile("../a.png", FileSuiteSupport.bytes(10), session: session, on: connection)?.resultCode == "INVALID_DATA")
        #expect(harness.unit.apps[session]?.files.isEmpty == true)
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test("Chunked PutFile: offset must continue the file, stay within length; crc is checked per chunk")
    func chunkedUpload() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        let whole = FileSuiteSupport.bytes(2500)
        func chunk(_ start: Int, _ count: Int) -> ByteBuffer { whole.getSlice(at: start, length: count)! }
        func crc(_ buffer: ByteBuffer) -> SDLJSON { .int(Int64(SDLCRC32.checksum(buffer))) }

        let first = harness.putFile(
            "big.bin", chunk(0, 1000), session: session, on: connection, extra: ["offset": 0, "length": 2500, "crc": crc(chunk(0, 1000))])
        #expect(first?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]?.files["big.bin"]?.size == 1000)
        #expect(harness.unit.apps[session]?.files["big.bin"]?.declaredLength == 2500)
        // A wrong CRC: CORRUPTED_DATA, nothing stored.
        let corrupted = harness.putFile(
            "big.bin", chunk(1000, 1000), session: session, on: connection, extra: ["offset": 1000, "crc": 12345])
        #expect(corrupted?.resultCode == "CORRUPTED_DATA")
        #expect(corrupted?.success == false)
        // Overlapping and gapped offsets.
        #expect(
            harness.putFile("big.bin", chunk(500, 1000), session: session, on: connection, extra: ["offset": 500])?.resultCode
                == "INVALID_DATA")
        #expect(
            harness.putFile("big.bin", chunk(1500, 1000), session: session, on: connection, extra: ["offset": 1500])?.resultCode
                == "INVALID_DATA")
        // A later chunk may carry its own size as length (iOS does).
        let second = harness.putFile(
            "big.bin", chunk(1000, 1000), session: session, on: connection,
            extra: ["offset": 1000, "length": 1000, "crc": crc(chunk(1000, 1000))])
        #expect(second?.resultCode == "SUCCESS")
        // Past the declared length.
        #expect(
            harness.putFile("big.bin", FileSuiteSupport.bytes(1000), session: session, on: connection, extra: ["offset": 2000])?.resultCode
                == "INVALID_DATA")
        let last = harness.putFile(
            "big.bin", chunk(2000, 500), session: session, on: connection, extra: ["offset": 2000, "crc": crc(chunk(2000, 500))])
        #expect(last?.resultCode == "SUCCESS")
        #expect(last?.parameters["spaceAvailable"] == .int(Self.quota - 2500))
        #expect(harness.unit.apps[session]?.files["big.bin"]?.size == 2500)
        #expect(harness.unit.apps[session]?.files["big.bin"]?.isComplete == true)
        #expect(harness.unit.apps[session]?.files["big.bin"]?.bytes == whole)
        // An offset for a file that does not exist; a first chunk longer than its length.
        #expect(
            harness.putFile("none.bin", chunk(0, 10), session: session, on: connection, extra: ["offset": 10])?.resultCode == "INVALID_DATA"
        )
        #expect(
            harness.putFile("short.bin", chunk(0, 10), session: session, on: connection, extra: ["offset": 0, "length": 5])?.resultCode
                == "INVALID_DATA")
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test("The app directory quota: OUT_OF_MEMORY past it; a replaced file counts once; system files do not count")
    func quota() throws {
        var (harness, connection, session) = FileSuiteSupport.harness(profile: try FileSuiteSupport.profile(quota: 10_000))
        #expect(
            harness.putFile("a.bin", FileSuiteSupport.bytes(6000), session: session, on: connection)?.parameters["spaceAvailable"] == 4000)
        let full = harness.putFile("b.bin", FileSuiteSupport.bytes(6000), session: session, on: connection)
        #expect(full?.resultCode == "OUT_OF_MEMORY")
        #expect(full?.success == false)
        #expect(
            harness.putFile("a.bin", FileSuiteSupport.bytes(9000), session: session, on: connection)?.parameters["spaceAvailable"] == 1000)
        let system = harness.putFile("sys.bin", FileSuiteSupport.bytes(6000), session: session, on: connection, extra: ["systemFile": true])
        #expect(system?.resultCode == "SUCCESS")
        #expect(system?.parameters["spaceAvailable"] == 1000)
        #expect(harness.call("ListFiles", session: session, on: connection)?.parameters["filenames"] == ["a.bin"])
        #expect(harness.call("DeleteFile", ["syncFileName": "sys.bin"], session: session, on: connection)?.resultCode == "REJECTED")
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test("In HMI NONE: five PutFile, five ListFiles, five DeleteFile, then REJECTED; leaving NONE lifts the limit")
    func noneLimits() throws {
        var (harness, connection, session) = FileSuiteSupport.harness(inNone: true)
        #expect(harness.unit.apps[session]?.hmiLevel == "NONE")
        for index in 0..<5 {
            #expect(harness.putFile("f\(index)", FileSuiteSupport.bytes(10), session: session, on: connection)?.resultCode == "SUCCESS")
        }
        let sixth = harness.putFile("f5", FileSuiteSupport.bytes(10), session: session, on: connection)
        #expect(sixth?.resultCode == "REJECTED")
        for _ in 0..<5 { #expect(harness.call("ListFiles", session: session, on: connection)?.resultCode == "SUCCESS") }
        #expect(harness.call("ListFiles", session: session, on: connection)?.resultCode == "REJECTED")
        for index in 0..<5 {
            #expect(
                harness.call("DeleteFile", ["syncFileName": .string("f\(index)")], session: session, on: connection)?.resultCode
                    == "SUCCESS")
        }
        #expect(harness.call("DeleteFile", ["syncFileName": "f0"], session: session, on: connection)?.resultCode == "REJECTED")
        harness.apply(
            try harness.unit.setHMI(appID: "demo-1", hmiLevel: "FULL", audioStreamingState: nil, systemContext: nil, now: harness.now))
        #expect(harness.putFile("f5", FileSuiteSupport.bytes(10), session: session, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.call("ListFiles", session: session, on: connection)?.parameters["filenames"] == ["f5"])
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test("SetAppIcon needs a stored file (INVALID_DATA otherwise) and sets the icon")
    func setAppIcon() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        let missing = harness.call("SetAppIcon", ["syncFileName": "icon.png"], session: session, on: connection)
        #expect(missing?.resultCode == "INVALID_DATA")
        #expect(
            harness.putFile("icon.png", FileSuiteSupport.bytes(300), session: session, on: connection, extra: ["fileType": "GRAPHIC_PNG"])?
                .resultCode == "SUCCESS")
        #expect(harness.call("SetAppIcon", ["syncFileName": "icon.png"], session: session, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]?.iconFile == "icon.png")
        #expect(harness.unit.apps[session]?.json["icon"] == "icon.png")  // the launcher draws it
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test("Persistent files survive unregistration; others do not")
    func persistentFiles() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        _ = harness.putFile("keep.png", FileSuiteSupport.bytes(100), session: session, on: connection, extra: ["persistentFile": true])
        _ = harness.putFile("drop.png", FileSuiteSupport.bytes(100), session: session, on: connection)
        #expect(harness.call("UnregisterAppInterface", session: session, on: connection)?.resultCode == "SUCCESS")
        let (again, _) = harness.register(on: connection)
        let list = harness.call("ListFiles", session: again, on: connection)
        #expect(list?.parameters["filenames"] == ["keep.png"])
        #expect(list?.parameters["spaceAvailable"] == .int(Self.quota - 100))
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }
}
