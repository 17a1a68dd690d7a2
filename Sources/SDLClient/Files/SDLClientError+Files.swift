extension SDLClientError.Code {
    /// The head unit answered a file request (a chunk's PutFile, ListFiles, DeleteFile,
    /// SetAppIcon) with a failure result code; the detail names the result code and, for an
    /// upload, the offset of the refused chunk (SDL-PROTOCOL.md §c "PutFile with bulk data").
    public static let fileRequestFailed = Self(rawValue: "fileRequestFailed")
}
