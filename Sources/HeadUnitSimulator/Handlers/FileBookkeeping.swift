/// Handler state that ``AppState`` and ``AudioPassThruState`` have no field for: partial uploads,
/// Core's per-app PutFile/DeleteFile/ListFiles counts in HMI NONE, and the format of a running
/// audio pass-thru.
///
/// It is kept in `persistentFiles` under keys that start with a NUL character, which no policy
/// app id has (app ids are matched case-insensitively and come from JSON text), so
/// RegisterAppInterface never loads them as files. These helpers are the only place that knows.
extension HeadUnit {
    static let bookkeepingPrefix = "\u{0}"

    func bookkeeping(_ key: String) -> [String: StoredFile] {
        persistentFiles[Self.bookkeepingPrefix + key] ?? [:]
    }

    mutating func setBookkeeping(_ key: String, _ value: [String: StoredFile]) {
        persistentFiles[Self.bookkeepingPrefix + key] = value.isEmpty ? nil : value
    }

    /// The bookkeeping key of one registration of an app: its connection, session and app id.
    func bookkeepingKey(_ kind: String, app: AppState) -> String {
        "\(kind)/\(app.connection.rawValue)/\(app.sessionID)/\(app.appID)"
    }
}
