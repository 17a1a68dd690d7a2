import ArgumentParser
import Foundation
import NIOCore
import SDLProtocol
import SDLSpec

/// `sdl-gateway inspect`: decodes an SDL byte stream and prints one JSON object per line for each
/// frame and for each reassembled multi-frame message. Malformed input ends with exit status 2 and
/// a message naming the byte offset; the lines before it are still printed.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode an SDL byte stream into one JSON object per frame.",
        discussion: """
            Reads raw bytes from FILE, from standard input when FILE is '-', or hex digits from --hex \
            (whitespace, ':' and '|' between them are ignored). Each line has the keys that apply: \
            version, encrypted, frameType, serviceType, frameInfo, controlFrame, sessionID, dataSize, \
            messageID, bson, rpcType, functionID, function, correlationID, json, bulkDataSize.
            A capture file of sdl-gateway serve --record (it starts with SDLCAP) is recognised by its magic: \
            each line then also has record (header, opened, closed, lost, dropped, frame, error), direction \
            (appToHeadUnit or headUnitToApp), time (ISO 8601 UTC, milliseconds) and offset (seconds since the \
            recording started); each direction is reassembled separately. A malformed or truncated capture \
            file, or SDL bytes in it that do not decode, end with exit status 2.
            """
    )

    @Option(name: .long, help: "The stream as hex digits, e.g. '10 07 01 00 00 00 00 00'.")
    var hex: String?

    @Argument(help: "A file of raw SDL bytes, or '-' for standard input.")
    var file: String?

    @Option(name: .long, help: "The largest frame payload to accept (a v5 StartServiceACK's mtu raises it).")
    var maxPayload: Int = SDLFrameDecoder.defaultMaximumPayloadSize

    @Option(name: .long, help: "A MOBILE_API.xml to name functions by, instead of the built-in rpc_spec 8.0.0.")
    var rpcSpec: String?

    func validate() throws {
        guard (hex == nil) != (file == nil) else {
            throw ValidationError("Give exactly one of --hex HEX or FILE ('-' for standard input).")
        }
        guard maxPayload >= 8 else { throw ValidationError("--max-payload must be at least 8.") }
    }

    func run() throws {
        let catalog: SDLCatalog
        if let rpcSpec {
            do {
                catalog = try SDLCatalog(contentsOf: URL(fileURLWithPath: rpcSpec))
            } catch {
                throw ValidationError("--rpc-spec \(rpcSpec): \(error)")
            }
        } else {
            catalog = .builtIn
        }
        var output = StandardOutputLines()
        var inspector = Inspector.undecided(catalog: catalog, maximumPayloadSize: maxPayload)
        do {
            if let hex {
                try inspector.feed(try Self.parseHex(hex), emit: { output.write($0) })
            } else if let file {
                let handle: FileHandle
                if file == "-" {
                    handle = .standardInput
                } else {
                    guard let opened = FileHandle(forReadingAtPath: file) else {
                        throw ValidationError("Cannot open \(file).")
                    }
                    handle = opened
                }
                while let chunk = try handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
                    try inspector.feed(ByteBuffer(bytes: chunk), emit: { output.write($0) })
                }
            }
            try inspector.finish(emit: { output.write($0) })
            output.flush()
        } catch let error as SDLProtocolError {
            output.flush()
            FileHandle.standardError.write(
                Data(
                    "sdl-gateway inspect: malformed capture file at byte offset \(error.offset ?? 0): \(error.code): \(error.detail)\n".utf8
                ))
            throw ExitCode(2)
        } catch let error as CaptureErrors {
            output.flush()
            FileHandle.standardError.write(Data("sdl-gateway inspect: \(error)\n".utf8))
            throw ExitCode(2)
        } catch let error as StreamInspector.InspectionError {
            output.flush()
            FileHandle.standardError.write(Data("sdl-gateway inspect: \(error)\n".utf8))
            throw ExitCode(2)
        } catch let error as HexError {
            FileHandle.standardError.write(Data("sdl-gateway inspect: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    /// SDL bytes in a well-formed capture file that did not decode (each printed as an error line).
    struct CaptureErrors: Error, CustomStringConvertible {
        var count: Int
        var description: String {
            "\(count) stretch\(count == 1 ? "" : "es") of SDL bytes in the capture did not decode (see the \"error\" lines)"
        }
    }

    /// A raw SDL byte stream or a capture file: decided by the first eight bytes.
    enum Inspector {
        case undecided(catalog: SDLCatalog, maximumPayloadSize: Int, head: ByteBuffer = ByteBuffer())
        case raw(StreamInspector)
        case capture(CaptureInspector)

        mutating func feed(_ bytes: ByteBuffer, emit: (SDLJSON) -> Void) throws {
            switch self {
            case .undecided(let catalog, let maximumPayloadSize, var head):
                var bytes = bytes
                head.writeBuffer(&bytes)
                guard head.readableBytes >= SDLCapture.magic.count else {
                    self = .undecided(catalog: catalog, maximumPayloadSize: maximumPayloadSize, head: head)
                    return
                }
                try decide(catalog: catalog, maximumPayloadSize: maximumPayloadSize, head: head, emit: emit)
            case .raw(var inspector):
                try inspector.feed(bytes, emit: emit)
                self = .raw(inspector)
            case .capture(var inspector):
                try inspector.feed(bytes, emit: emit)
                self = .capture(inspector)
            }
        }

        mutating func finish(emit: (SDLJSON) -> Void) throws {
            if case .undecided(let catalog, let maximumPayloadSize, let head) = self {
                // Fewer than eight bytes: a raw stream (or a truncated capture: "SDLCAP" is no SDL frame).
                try decide(catalog: catalog, maximumPayloadSize: maximumPayloadSize, head: head, emit: emit)
            }
            switch self {
            case .undecided: break
            case .raw(let inspector): try inspector.finish()
            case .capture(var inspector):
                try inspector.finish(emit: emit)
                if inspector.sdlErrors > 0 { throw CaptureErrors(count: inspector.sdlErrors) }
            }
        }

        private mutating func decide(catalog: SDLCatalog, maximumPayloadSize: Int, head: ByteBuffer, emit: (SDLJSON) -> Void) throws {
            let prefix = head.readableBytesView.prefix(SDLCapture.magic.count)
            if !prefix.isEmpty, prefix.elementsEqual(SDLCapture.magic.prefix(prefix.count)) {
                self = .capture(CaptureInspector(catalog: catalog, maximumPayloadSize: maximumPayloadSize))
            } else {
                self = .raw(StreamInspector(catalog: catalog, maximumPayloadSize: maximumPayloadSize))
            }
            try feed(head, emit: emit)
        }
    }

    struct HexError: Error, CustomStringConvertible {
        var description: String
    }

    /// Hex digits, with whitespace, ':', '|', ',' and '0x' prefixes ignored.
    static func parseHex(_ text: String) throws(HexError) -> ByteBuffer {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        var previous: UInt8 = 0
        for (index, char) in text.utf8.enumerated() {
            let value: UInt8
            switch char {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = char - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = char - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = char - UInt8(ascii: "A") + 10
            case UInt8(ascii: "x"), UInt8(ascii: "X"):
                guard previous == UInt8(ascii: "0"), high == 0 else {
                    throw HexError(description: "--hex has a misplaced 'x' at position \(index)")
                }
                high = nil
                previous = char
                continue
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ":"), UInt8(ascii: "|"), UInt8(ascii: ","):
                previous = char
                continue
            default:
                throw HexError(description: "--hex has a character that is not a hex digit at position \(index)")
            }
            previous = char
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        guard high == nil else { throw HexError(description: "--hex has an odd number of hex digits") }
        return ByteBuffer(bytes: bytes)
    }
}

/// Buffered line output to standard output.
struct StandardOutputLines {
    private var buffer: [UInt8] = []

    mutating func write(_ line: SDLJSON) {
        buffer.append(contentsOf: line.serializedBytes())
        buffer.append(0x0A)
        if buffer.count >= 64 * 1024 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}
