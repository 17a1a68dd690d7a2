import Foundation
import Logging
import NIOCore
import SDLClient
import SDLProtocol
import Testing

/// The recorder between a connection and its capture file: bounded, never waiting, counting
/// what it drops, and the file writer that drains it.
@Suite("Capture tap and file", .timeLimit(.minutes(1)))
struct CaptureTapTests {
    static let header = SDLCaptureHeader(app: "demo", sdlAppID: "demo-app", headUnit: "tcp://127.0.0.1:12345", startMicroseconds: 0)

    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    @Test("Records come out in order with increasing times; finish ends the reader after what was queued")
    func order() async {
        let tap = SDLCaptureTap(header: Self.header)
        tap.record(.opened, text: "tcp://127.0.0.1:12345")
        for byte in 0..<10 as Range<UInt8> { tap.record(byte % 2 == 0 ? .appToHeadUnit : .headUnitToApp, ByteBuffer(bytes: [byte])) }
        tap.finish()
        tap.record(.appToHeadUnit, ByteBuffer(bytes: [99]))  // after finish: ignored
        var records: [SDLCaptureRecord] = []
        while let batch = await tap.nextBatch() { records += batch }
        #expect(records.count == 11)
        #expect(records.first?.kind == .opened)
        #expect(records.dropFirst().map { $0.payload.getInteger(at: 0, as: UInt8.self) } == (0..<10).map { $0 })
        #expect(zip(records, records.dropFirst()).allSatisfy { $0.offsetMicroseconds <= $1.offsetMicroseconds })
        #expect(tap.droppedCount == 0)
    }

    @Test("A full queue drops records, counts them, and says where with a dropped record")
    func drops() async {
        let tap = SDLCaptureTap(header: Self.header, limits: .init(records: 3, bytes: 1000))
        for byte in 0..<5 as Range<UInt8> { tap.record(.headUnitToApp, ByteBuffer(bytes: [byte])) }
        #expect(tap.droppedCount == 2)
        #expect(tap.queuedCount == 3)
        let first = await tap.nextBatch()
        #expect(first?.count == 3)
        tap.record(.headUnitToApp, ByteBuffer(bytes: [5]))
        // Byte bound: a record that does not fit beside the queued ones is dropped too.
        tap.record(.headUnitToApp, ByteBuffer(repeating: 0, count: 1000))
        tap.finish()
        let second = await tap.nextBatch()
        #expect(second?.map(\.kind) == [.dropped, .headUnitToApp, .dropped])
        #expect(second?.first?.droppedCount == 2)
        #expect(second?.last?.droppedCount == 1)
        #expect(tap.droppedCount == 3)
        #expect(await tap.nextBatch() == nil)
    }

    @Test("A waiting reader wakes when a record comes, and a cancelled reader ends")
    func waiting() async {
        let tap = SDLCaptureTap(header: Self.header)
        async let batch = tap.nextBatch()
        // The reader may or may not be waiting yet: either way it gets the record.
        tap.record(.lost, text: "gone")
        #expect(await batch?.map(\.text) == ["gone"])

        let afterCancel = await withTaskGroup(of: [SDLCaptureRecord]?.self) { group in
            group.addTask { await tap.nextBatch() }
            group.cancelAll()
            return await group.next() ?? []
        }
        #expect(afterCancel == nil)
    }

    @Test("The file writer writes the header and every record, and the file decodes")
    func file() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("capture-tap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("demo.sdlcap").path
        let tap = SDLCaptureTap(header: Self.header)
        let written = await withTaskGroup(of: Int.self) { group in
            group.addTask { await SDLCaptureFile.write(tap, to: path, logger: Self.logger) }
            tap.record(.opened, text: "tcp://127.0.0.1:12345")
            tap.record(.appToHeadUnit, ByteBuffer(bytes: [1, 2, 3]))
            tap.record(.closed, text: "")
            tap.finish()
            return await group.next() ?? -1
        }
        #expect(written == 3)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let decoded = try SDLCaptureDecoder.decode(ByteBuffer(bytes: bytes))
        #expect(decoded.header == Self.header)
        #expect(decoded.records.map(\.kind) == [.opened, .appToHeadUnit, .closed])
        #expect(decoded.records[1].payload == ByteBuffer(bytes: [1, 2, 3]))
    }

    @Test("A file that cannot be created drains the tap instead of blocking the session")
    func unwritable() async {
        let tap = SDLCaptureTap(header: Self.header, limits: .init(records: 2, bytes: 100))
        tap.record(.opened, text: "x")
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString)/demo.sdlcap").path
        let written = await SDLCaptureFile.write(tap, to: missing, logger: Self.logger)
        #expect(written == 0)
        #expect(tap.queuedCount == 0)
        tap.record(.appToHeadUnit, ByteBuffer(bytes: [1]))
        #expect(tap.queuedCount == 0, "finished: nothing queues any more")
    }

    @Test("Two sessions given the same file name (an id re-created within a millisecond) get two files: the second gets -2")
    func sameName() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("capture-tap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("demo-20261122T050000.123Z.sdlcap").path
        for text in ["first", "second"] {
            let tap = SDLCaptureTap(header: Self.header)
            tap.record(.opened, text: text)
            tap.finish()
            #expect(await SDLCaptureFile.write(tap, to: path, logger: Self.logger) == 1)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["demo-20261122T050000.123Z-2.sdlcap", "demo-20261122T050000.123Z.sdlcap"])
        let second = try SDLCaptureDecoder.decode(ByteBuffer(bytes: try Data(contentsOf: directory.appendingPathComponent(names[0]))))
        #expect(second.records.first?.text == "second")
    }
}
