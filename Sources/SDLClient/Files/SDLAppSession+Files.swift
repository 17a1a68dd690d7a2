import NIOCore
import SDLProtocol

/// File calls on an app session (docs/protocol.md §c "PutFile with bulk data"; Base-4 allows them
/// in HMI NONE, where Core accepts at most 5 of each, §e). Each throws
/// ``SDLClientError/Code/fileRequestFailed`` when the head unit answers with a failure result.
extension SDLAppSession {
    /// Uploads a file of `size` bytes arriving as `chunks` (pieces of any size) in PutFile requests
    /// of `chunkSize` bytes (``SDLFileUploader``); returns the last PutFile response.
    public func upload<Bytes: AsyncSequence>(
        name: String,
        fileType: String,
        persistent: Bool = false,
        system: Bool = false,
        size: Int,
        chunks: Bytes,
        chunkSize: Int = SDLFileUploadPlan.defaultChunkSize,
        timeout: TimeAmount? = nil,
        isolation: isolated (any Actor)? = #isolation,
        progress: (SDLFileUploader.Progress) -> Void = { _ in }
    ) async throws -> SDLRPCMessage where Bytes.Element == ByteBuffer {
        let plan = try SDLFileUploadPlan(
            syncFileName: name, fileType: fileType, persistentFile: persistent, systemFile: system, size: size, chunkSize: chunkSize
        )
        let uploader = SDLFileUploader { function, parameters, bulkData in
            try await self.request(function, parameters, options: SDLRequestOptions(timeout: timeout, bulkData: bulkData))
        }
        return try await uploader.upload(plan, bytes: chunks, isolation: isolation, progress: progress)
    }

    /// Uploads a file held in memory.
    public func upload(
        name: String,
        fileType: String,
        persistent: Bool = false,
        system: Bool = false,
        data: ByteBuffer,
        chunkSize: Int = SDLFileUploadPlan.defaultChunkSize,
        timeout: TimeAmount? = nil
    ) async throws -> SDLRPCMessage {
        try await upload(
            name: name, fileType: fileType, persistent: persistent, system: system, size: data.readableBytes,
            chunks: AsyncStream {
                $0.yield(data); $0.finish()
            }, chunkSize: chunkSize, timeout: timeout
        )
    }

    /// The names of the app's files on the head unit (ListFiles `filenames`).
    public func listFiles() async throws -> [String] {
        let response = try await fileRequest("ListFiles", [:])
        return (response.parameters["filenames"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// Deletes one of the app's files; returns the DeleteFile response (`spaceAvailable`).
    @discardableResult
    public func deleteFile(_ name: String) async throws -> SDLRPCMessage {
        try await fileRequest("DeleteFile", ["syncFileName": .string(name)])
    }

    /// Makes an uploaded file the app's icon.
    @discardableResult
    public func setAppIcon(_ name: String) async throws -> SDLRPCMessage {
        try await fileRequest("SetAppIcon", ["syncFileName": .string(name)])
    }

    private func fileRequest(_ function: String, _ parameters: SDLJSON) async throws -> SDLRPCMessage {
        let response = try await request(function, parameters)
        guard SDLFileUploader.succeeded(response) else {
            let name = parameters["syncFileName"]?.stringValue.map { " \($0)" } ?? ""
            throw SDLClientError(.fileRequestFailed, "\(function)\(name): \(SDLFileUploader.outcome(of: response))")
        }
        return response
    }
}
