import NIOCore
import SDLProtocol
import SDLSpec

/// Decodes an SDL byte stream into one JSON object per frame, plus one per reassembled
/// multi-frame message: what `sdl-gateway inspect` prints.
///
/// Bytes are fed in any chunking; every line that can be produced is returned at once. The first
/// malformed byte ends the inspection with an ``InspectionError`` naming its absolute offset.
struct StreamInspector {
    /// Malformed input: where (absolute byte offset in the stream) and what.
    struct InspectionError: Error, CustomStringConvertible {
        var offset: Int
        var error: SDLProtocolError
        var description: String { "malformed input at byte offset \(offset): \(error.code): \(error.detail)" }
    }

    /// Names function ids, and numbers the function names of v1 messages.
    let catalog: SDLCatalog

    private var decoder: SDLFrameDecoder
    private var assembler = SDLMessageAssembler()
    private var pending = ByteBuffer()
    /// Absolute offset of `pending`'s reader index in the stream.
    private var consumed = 0
    /// Absolute offset of the first frame of each message in reassembly, for error reports.
    private var reassemblyOffsets: [SDLMessageAssembler.Key: Int] = [:]
    private let clock = NIODeadline.uptimeNanoseconds(0)

    init(catalog: SDLCatalog, maximumPayloadSize: Int = SDLFrameDecoder.defaultMaximumPayloadSize) {
        self.catalog = catalog
        self.decoder = SDLFrameDecoder(maximumPayloadSize: maximumPayloadSize)
    }

    /// Feeds more bytes; returns the lines for every frame they complete.
    mutating func feed(_ bytes: ByteBuffer, emit: (SDLJSON) -> Void) throws(InspectionError) {
        var bytes = bytes
        pending.writeBuffer(&bytes)
        while true {
            let frameOffset = consumed
            let before = pending.readableBytes
            let frame: SDLFrame?
            do {
                frame = try decoder.decode(buffer: &pending)
            } catch {
                throw InspectionError(offset: frameOffset + (error.offset ?? 0), error: error)
            }
            guard let frame else { break }
            consumed += before - pending.readableBytes
            try inspect(frame, at: frameOffset, emit: emit)
        }
        pending.discardReadBytes()
    }

    /// Ends the stream: a half frame or an unfinished multi-frame message is malformed input.
    func finish() throws(InspectionError) {
        if pending.readableBytes > 0 {
            throw InspectionError(
                offset: consumed,
                error: SDLProtocolError(.invalidFrame, "the stream ends inside a frame (\(pending.readableBytes) bytes left over)")
            )
        }
        if let (key, offset) = reassemblyOffsets.min(by: { $0.value < $1.value }) {
            throw InspectionError(
                offset: offset,
                error: SDLProtocolError(.reassemblySizeMismatch, "the stream ends before the last consecutive frame of \(key)")
            )
        }
    }

    private mutating func inspect(_ frame: SDLFrame, at offset: Int, emit: (SDLJSON) -> Void) throws(InspectionError) {
        let header = frame.header
        var line = Self.headerFields(header)
        line["frameType"] = .string(header.frameType.description)
        line["frameInfo"] = .int(Int64(header.frameInfo))
        let payloadOffset = offset + header.size
        switch header.frameType {
        case .control:
            guard let kind = SDLControlFrameInfo(rawValue: header.frameInfo) else {
                throw InspectionError(
                    offset: offset + 2,
                    error: SDLProtocolError(.unknownControlFrame, "control frame info 0x\(String(header.frameInfo, radix: 16)) is reserved")
                )
            }
            line["controlFrame"] = .string(kind.description)
            do {
                if let bson = try Self.bsonPayload(frame) { line["bson"] = bson }
            } catch {
                throw InspectionError(offset: payloadOffset + (error.offset ?? 0), error: error)
            }
            emit(.object(line))
        case .single:
            let message = SDLMessage(singleFrame: frame)
            try addRPCFields(of: message, to: &line, payloadOffset: payloadOffset)
            emit(.object(line))
        case .first, .consecutive:
            let key = SDLMessageAssembler.Key(sessionID: header.sessionID, messageID: header.messageID)
            emit(.object(line))
            let message: SDLMessage?
            do {
                message = try assembler.process(frame, now: clock)
            } catch {
                reassemblyOffsets[key] = nil
                throw InspectionError(offset: offset, error: error)
            }
            if header.frameType == .first { reassemblyOffsets[key] = offset }
            guard let message else { return }
            let firstOffset = reassemblyOffsets.removeValue(forKey: key) ?? offset
            var whole = Self.headerFields(header)
            whole["dataSize"] = .int(Int64(message.payload.readableBytes))
            whole["encrypted"] = .bool(message.isEncrypted)
            // Errors inside a reassembled payload are reported at its First Frame.
            try addRPCFields(of: message, to: &whole, payloadOffset: firstOffset, offsetIsExact: false)
            emit(.object(whole))
        }
    }

    /// The `bson` of a control frame: its parameters as JSON when the payload is BSON (v5, and the
    /// v1-header StartService carrying `protocolVersion`), after checking it decodes as a typed
    /// control message (docs/protocol.md §b).
    static func bsonPayload(_ frame: SDLFrame) throws(SDLProtocolError) -> SDLJSON? {
        _ = try SDLControlMessage(frame: frame)
        let isBSON = frame.header.version >= 5 || frame.header.frameInfo == SDLControlFrameInfo.startService.rawValue
        guard isBSON, frame.payload.readableBytes > 0 else { return nil }
        var payload = frame.payload
        return try payload.readBSONDocument().json
    }

    private static func headerFields(_ header: SDLFrameHeader) -> [String: SDLJSON] {
        var fields: [String: SDLJSON] = [
            "version": .int(Int64(header.version)),
            "encrypted": .bool(header.isEncrypted),
            "serviceType": .int(Int64(header.serviceType.rawValue)),
            "sessionID": .int(Int64(header.sessionID)),
            "dataSize": .int(Int64(header.dataSize)),
        ]
        if header.version >= 2 { fields["messageID"] = .int(Int64(header.messageID)) }
        return fields
    }

    /// RPC fields for messages on the RPC and hybrid services; encrypted payloads stay opaque.
    private func addRPCFields(
        of message: SDLMessage,
        to line: inout [String: SDLJSON],
        payloadOffset: Int,
        offsetIsExact: Bool = true
    ) throws(InspectionError) {
        guard message.serviceType == .rpc || message.serviceType == .bulkData, !message.isEncrypted else { return }
        var payload = message.payload
        do {
            if message.version == 1 {
                let rpc = try payload.readSDLRPCMessageV1()
                line["rpcType"] = .string(rpc.rpcType.description)
                line["function"] = .string(rpc.name)
                if let id = catalog.functionID(named: rpc.name) { line["functionID"] = .int(Int64(id)) }
                if let correlationID = rpc.correlationID { line["correlationID"] = .int(Int64(correlationID)) }
                line["json"] = rpc.parameters
            } else {
                let rpc = try payload.readSDLRPCMessage()
                line["rpcType"] = .string(rpc.rpcType.description)
                line["functionID"] = .int(Int64(rpc.functionID))
                if let name = catalog.functionName(forID: rpc.functionID) { line["function"] = .string(name) }
                line["correlationID"] = .int(Int64(rpc.correlationID))
                line["json"] = rpc.parameters
                line["bulkDataSize"] = .int(Int64(rpc.bulkData?.readableBytes ?? 0))
            }
        } catch {
            let inner = offsetIsExact ? (error.offset ?? 0) : 0
            throw InspectionError(offset: payloadOffset + inner, error: error)
        }
    }
}
