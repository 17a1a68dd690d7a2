import NIOCore
import SDLProtocol

/// Sends a file as chunked PutFile requests (docs/protocol.md §c "PutFile with bulk data") along an
/// ``SDLFileUploadPlan``: the incoming bytes are re-cut to exactly the plan's chunks
/// (``SDLFileRechunker``, holding about one chunk, never the whole file), each chunk goes as one
/// PutFile with its CRC-32 and waits for its response before the next is read (the connection
/// fragments each request by the MTU, §a). The first refused chunk ends the upload with
/// ``SDLClientError/Code/fileRequestFailed`` naming its offset and the head unit's result code;
/// task cancellation is honoured between chunks with ``SDLClientError/Code/cancelled``.
public struct SDLFileUploader: Sendable {
    /// Sends one request (function, parameters, bulk data) and returns its response.
    public typealias Send = @Sendable (_ function: String, _ parameters: SDLJSON, _ bulkData: ByteBuffer?) async throws -> SDLRPCMessage

    /// Where an upload stands after an acknowledged chunk.
    public struct Progress: Sendable, Hashable {
        public var fileName: String
        /// Bytes the head unit acknowledged so far.
        public var bytesSent: Int
        public var totalBytes: Int
        public var chunksSent: Int
        public var chunkCount: Int
        /// The most bytes the re-chunker held at once so far.
        public var maximumBufferedBytes: Int
        /// The PutFile response's `spaceAvailable`, when given.
        public var spaceAvailable: Int64?

        public var fractionCompleted: Double { totalBytes == 0 ? 1 : Double(bytesSent) / Double(totalBytes) }
        public var isComplete: Bool { bytesSent == totalBytes }
    }

    private let send: Send

    public init(send: @escaping Send) {
        self.send = send
    }

    /// Uploads `bytes` (exactly `plan.size` bytes, in pieces of any size) and returns the last
    /// chunk's PutFile response. `progress` is called after each acknowledged chunk. Errors of
    /// `bytes` are passed on, except that a `CancellationError` becomes
    /// ``SDLClientError/Code/cancelled``.
    public func upload<Bytes: AsyncSequence>(
        _ plan: SDLFileUploadPlan,
        bytes: Bytes,
        isolation: isolated (any Actor)? = #isolation,
        progress: (Progress) -> Void = { _ in }
    ) async throws -> SDLRPCMessage where Bytes.Element == ByteBuffer {
        var iterator = bytes.makeAsyncIterator()
        var rechunker = SDLFileRechunker()
        var status = Progress(
            fileName: plan.syncFileName, bytesSent: 0, totalBytes: plan.size, chunksSent: 0,
            chunkCount: plan.chunkCount, maximumBufferedBytes: 0, spaceAvailable: nil
        )
        var lastResponse: SDLRPCMessage?
        for index in 0..<plan.chunkCount {
            if Task.isCancelled {
                throw SDLClientError(
                    .cancelled, "the upload of \(plan.syncFileName) was cancelled after \(status.bytesSent) of \(plan.size) bytes")
            }
            let chunk = plan.chunk(at: index)
            var data: ByteBuffer?
            while data == nil {
                data = rechunker.next(chunk.byteCount)
                if data != nil { break }
                let next: ByteBuffer?
                do {
                    next = try await iterator.next(isolation: isolation)
                } catch is CancellationError {
                    throw SDLClientError(
                        .cancelled,
                        "the upload of \(plan.syncFileName) was cancelled while reading its data, after \(status.bytesSent) of \(plan.size) bytes were sent"
                    )
                }
                guard let more = next else {
                    throw SDLClientError(
                        .invalidParameters,
                        "the data of \(plan.syncFileName) ended after \(rechunker.bytesReceived) bytes; the declared size is \(plan.size)"
                    )
                }
                rechunker.feed(more)
            }
            guard let data else { preconditionFailure("loop exits with data") }
            if index == plan.chunkCount - 1 {
                try await expectEnd(of: &iterator, rechunker: &rechunker, plan: plan, isolation: isolation)
            }
            status.maximumBufferedBytes = rechunker.maximumBufferedBytes
            let parameters = plan.parameters(for: chunk, crc: SDLCRC32.checksum(data))
            let response = try await send("PutFile", parameters, data)
            guard Self.succeeded(response) else {
                throw SDLClientError(
                    .fileRequestFailed,
                    "PutFile \(plan.syncFileName) at offset \(chunk.offset) (\(chunk.byteCount) bytes, chunk \(index + 1) of \(plan.chunkCount)): "
                        + Self.outcome(of: response)
                )
            }
            status.bytesSent = chunk.end
            status.chunksSent = index + 1
            status.spaceAvailable = response.parameters["spaceAvailable"]?.intValue
            progress(status)
            lastResponse = response
        }
        guard let lastResponse else { preconditionFailure("a plan has at least one chunk") }
        return lastResponse
    }

    /// Before the last chunk goes: the input must hold no more bytes than the declared size.
    private func expectEnd<Iterator: AsyncIteratorProtocol>(
        of iterator: inout Iterator,
        rechunker: inout SDLFileRechunker,
        plan: SDLFileUploadPlan,
        isolation: isolated (any Actor)?
    ) async throws where Iterator.Element == ByteBuffer {
        while rechunker.leftoverBytes == 0, let more = try await iterator.next(isolation: isolation) {
            rechunker.feed(more)
        }
        if rechunker.leftoverBytes > 0 {
            throw SDLClientError(
                .invalidParameters,
                "the data of \(plan.syncFileName) is longer than the declared size \(plan.size); the last chunk was not sent"
            )
        }
    }

    /// `success`, or when absent a `resultCode` of SUCCESS or WARNINGS (docs/protocol.md §c).
    static func succeeded(_ response: SDLRPCMessage) -> Bool {
        if let success = response.parameters["success"]?.boolValue { return success }
        let code = response.parameters["resultCode"]?.stringValue
        return code == "SUCCESS" || code == "WARNINGS"
    }

    /// "RESULT_CODE (info)" for error details.
    static func outcome(of response: SDLRPCMessage) -> String {
        let code = response.parameters["resultCode"]?.stringValue ?? "no resultCode"
        let info = response.parameters["info"]?.stringValue
        return info.map { "\(code) (\($0))" } ?? code
    }
}
