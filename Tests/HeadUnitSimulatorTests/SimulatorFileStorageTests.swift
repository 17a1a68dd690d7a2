import NIOCore
import SDLProtocol
import Testing

@testable import HeadUnitSimulator

/// The bytes of the files apps put: kept as they arrive, assembled from chunks, freed with the
/// file, and bounded for the whole head unit (``HeadUnitConfiguration/fileStorageLimit``).
@Suite("Simulator: file bytes and the head unit's file storage")
struct SimulatorFileStorageTests {
    /// What the files the head unit holds take, counted from scratch; and no resumption record
    /// holds any file.
    static func recount(_ unit: HeadUnit) -> Int {
        #expect(unit.resumption.values.allSatisfy { $0.app.files.isEmpty }, "a resumption record keeps files")
        let registered = unit.apps.values.reduce(0) { $0 + HeadUnit.storageSize(of: $1.files) }
        return registered + unit.persistentFiles.values.reduce(0) { $0 + HeadUnit.storageSize(of: $1) }
    }

    /// The address of a stored file's bytes: the same address after a chunk means it was
    /// appended in place, not to a copy.
    static func address(_ harness: HeadUnitHarness, _ session: UInt8, _ name: String) -> Int? {
        harness.unit.apps[session]?.files[name]?.bytes.withUnsafeReadableBytes { $0.baseAddress.map { Int(bitPattern: $0) } }
    }

    /// A harness with `limit` bytes of file storage and two registered apps in FULL, `one` and `two`.
    static func twoApps(limit: Int) -> (HeadUnitHarness, ConnectionID, UInt8, UInt8) {
        var configuration = HeadUnitConfiguration(autoActivate: true)
        configuration.fileStorageLimit = limit
        var harness = HeadUnitHarness(configuration)
        let connection = harness.open()
        let (one, _) = harness.register(appName: "One", appID: "one", on: connection)
        let (two, _) = harness.register(appName: "Two", appID: "two", on: connection)
        harness.advance(by: .seconds(1))
        return (harness, connection, one, two)
    }

    @Test(
        "Three chunks (offset/length) assemble to exactly the bytes sent, appended in place; incomplete until the last; the entity tag is the CRC-32 and size"
    )
    func threeChunks() throws {
        var (harness, connection, session) = FileSuiteSupport.harness()
        let whole = FileSuiteSupport.bytes(3000, seed: 3)
        func chunk(_ index: Int) -> ByteBuffer { whole.getSlice(at: index * 1000, length: 1000)! }

        #expect(
            harness.putFile(
                "art.png", chunk(0), session: session, on: connection, extra: ["offset": 0, "length": 3000, "fileType": "GRAPHIC_PNG"])?
                .resultCode == "SUCCESS")
        do {
            // (A copy held past this block would share the bytes, and the next chunk would copy them.)
            let first = try #require(harness.unit.apps[session]?.files["art.png"])
            #expect(first.isComplete == false)
            #expect(first.size == 1000 && first.declaredLength == 3000)
            // The upload reserves its whole length in the head unit's storage.
            #expect(first.storageSize == 3000 && harness.unit.fileStorageUsed == 3000)
        }
        let address = Self.address(harness, session, "art.png")
        #expect(
            harness.putFile("art.png", chunk(1), session: session, on: connection, extra: ["offset": 1000, "fileType": "GRAPHIC_PNG"])?
                .resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]?.files["art.png"]?.isComplete == false)
        #expect(
            harness.putFile("art.png", chunk(2), session: session, on: connection, extra: ["offset": 2000, "fileType": "GRAPHIC_PNG"])?
                .resultCode == "SUCCESS")
        #expect(Self.address(harness, session, "art.png") == address, "a chunk was appended to a copy of the bytes")

        let file = try #require(harness.unit.apps[session]?.files["art.png"])
        #expect(file.bytes == whole)
        #expect(file.isComplete && file.declaredLength == nil)
        #expect(file.fileType == "GRAPHIC_PNG")
        #expect(file.entityTag == "\"\(String(SDLCRC32.checksum(whole), radix: 16))-bb8\"")
        #expect(harness.unit.fileStorageUsed == 3000 && Self.recount(harness.unit) == 3000)
        // A refused chunk changes nothing.
        #expect(harness.putFile("art.png", chunk(0), session: session, on: connection, extra: ["offset": 5])?.resultCode == "INVALID_DATA")
        #expect(harness.unit.apps[session]?.files["art.png"]?.bytes == whole)
        // Sent whole again, the file is replaced, not appended to.
        #expect(harness.putFile("art.png", chunk(1), session: session, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]?.files["art.png"]?.bytes == chunk(1))
        #expect(harness.unit.fileStorageUsed == 1000)
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test(
        "The head unit's file storage bounds all apps together: OUT_OF_MEMORY past it (a chunked upload at its first chunk, for its whole length); a replaced file counts once; DeleteFile frees it"
    )
    func storageLimit() throws {
        var (harness, connection, one, two) = Self.twoApps(limit: 10_000)
        #expect(harness.putFile("a.bin", FileSuiteSupport.bytes(6000), session: one, on: connection)?.resultCode == "SUCCESS")
        let refused = harness.putFile("b.bin", FileSuiteSupport.bytes(5000), session: two, on: connection)
        let full = try #require(refused)
        #expect(full.resultCode == "OUT_OF_MEMORY" && full.success == false)
        #expect(full.parameters["info"] == "The head unit's file storage is full: b.bin needs 5000 bytes, 4000 of 10000 are free")
        #expect(harness.unit.apps[two]?.files.isEmpty == true)
        #expect(harness.putFile("a.bin", FileSuiteSupport.bytes(2000), session: one, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.unit.fileStorageUsed == 2000)
        #expect(harness.putFile("b.bin", FileSuiteSupport.bytes(5000), session: two, on: connection)?.resultCode == "SUCCESS")
        // 7000 used: a chunked upload of 4000 does not fit, however small its first chunk.
        let chunked = harness.putFile(
            "c.bin", FileSuiteSupport.bytes(100), session: two, on: connection, extra: ["offset": 0, "length": 4000])
        #expect(chunked?.resultCode == "OUT_OF_MEMORY")
        #expect(harness.unit.apps[two]?.files["c.bin"] == nil)
        #expect(harness.call("DeleteFile", ["syncFileName": "a.bin"], session: one, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.unit.fileStorageUsed == 5000)
        #expect(
            harness.putFile("c.bin", FileSuiteSupport.bytes(100), session: two, on: connection, extra: ["offset": 0, "length": 4000])?
                .resultCode == "SUCCESS")
        #expect(harness.unit.fileStorageUsed == 9000)
        #expect(harness.putFile("d.bin", FileSuiteSupport.bytes(1001), session: one, on: connection)?.resultCode == "OUT_OF_MEMORY")
        // System files take storage too.
        #expect(
            harness.putFile("d.bin", FileSuiteSupport.bytes(1001), session: one, on: connection, extra: ["systemFile": true])?.resultCode
                == "OUT_OF_MEMORY")
        #expect(harness.putFile("d.bin", FileSuiteSupport.bytes(1000), session: one, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.unit.fileStorageUsed == 10_000 && Self.recount(harness.unit) == 10_000)
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test(
        "An app's non-persistent files and their bytes go when it unregisters or its connection ends; persistent ones stay once, and come back with their bytes; a resumption record keeps no file"
    )
    func filesGoWithTheApp() throws {
        var (harness, connection, session) = FileSuiteSupport.harness()
        let keep = FileSuiteSupport.bytes(100, seed: 1)
        #expect(
            harness.putFile("keep.png", keep, session: session, on: connection, extra: ["persistentFile": true])?.resultCode == "SUCCESS")
        #expect(harness.putFile("drop.png", FileSuiteSupport.bytes(200), session: session, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.unit.fileStorageUsed == 300)
        #expect(harness.call("UnregisterAppInterface", session: session, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.unit.fileStorageUsed == 100 && Self.recount(harness.unit) == 100)

        let (again, _) = harness.register(on: connection)
        #expect(harness.unit.apps[again]?.files["keep.png"]?.bytes == keep)
        #expect(harness.unit.fileStorageUsed == 100 && Self.recount(harness.unit) == 100)
        #expect(harness.putFile("drop.png", FileSuiteSupport.bytes(300), session: again, on: connection)?.resultCode == "SUCCESS")
        // Resumable data (a command) makes the head unit keep a resumption record when the link drops.
        #expect(
            harness.call("AddCommand", ["cmdID": 1, "menuParams": ["menuName": "Play"]], session: again, on: connection)?.resultCode
                == "SUCCESS")
        harness.closeConnection(connection)
        let record = try #require(harness.unit.resumption["demo-1"])
        #expect(record.app.commands.count == 1)
        #expect(harness.unit.fileStorageUsed == 100 && Self.recount(harness.unit) == 100)

        let next = harness.open()
        let (resumed, response) = harness.register(on: next, extra: ["hashID": .string(record.hash)])
        #expect(response.resultCode == "SUCCESS")
        #expect(harness.unit.apps[resumed]?.files.keys.sorted() == ["keep.png"])
        #expect(harness.unit.fileStorageUsed == 100 && Self.recount(harness.unit) == 100)
        // A restart of the head unit is the same: only persistent files stay.
        _ = harness.putFile("drop.png", FileSuiteSupport.bytes(300), session: resumed, on: next)
        let (_, actions) = harness.unit.restart(keepingResumptionData: true, now: harness.now)
        harness.apply(actions)
        #expect(harness.unit.fileStorageUsed == 100 && Self.recount(harness.unit) == 100)
    }
}
