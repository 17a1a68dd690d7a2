import HeadUnitModel
import NIOCore
import SDLProtocol

/// PutFile, ListFiles, DeleteFile, SetAppIcon, as SDL Core 8.2 answers them (docs/protocol.md §c,
/// §e): bulk data required, chunked uploads with `offset`/`length`, CRC-32 checks, the app
/// directory quota, and at most 5 of each file request while the app is in HMI NONE.
///
/// The files' bytes are kept (``StoredFile``), within each app's quota and the head unit's file
/// storage (``HeadUnitConfiguration/fileStorageLimit``), for the control API to serve. System
/// files (`systemFile`) go to Core's system folder: they are neither listed, deleted nor counted
/// against the app's quota (but they take file storage).
extension HeadUnit {
    static let fileHandlers: [String: RequestHandler] = [
        "PutFile": { $0.putFile($1) },
        "ListFiles": { $0.listFiles($1) },
        "DeleteFile": { $0.deleteFile($1) },
        "SetAppIcon": { $0.setAppIcon($1) },
    ]

    /// `PutFileRequest`, `DeleteFileRequest`, `ListFilesRequest` in [FILESYSTEM RESTRICTIONS].
    static let fileRequestsInNoneLimit = 5

    /// Bytes the app's own (non-system) files take.
    func usedSpace(_ app: AppState) -> Int64 {
        app.files.values.filter { !$0.isSystemFile }.reduce(0) { $0 + Int64($1.size) }
    }

    /// `spaceAvailable`: the quota minus what the app's files take, within the spec's 0…2000000000.
    func spaceAvailable(_ app: AppState) -> Int64 {
        min(max(configuration.profile.appDirectoryQuota - usedSpace(app), 0), 2_000_000_000)
    }

    /// Core's NONE-level limit: REJECTED once the app made `fileRequestsInNoneLimit` successful
    /// requests of this kind in NONE. Leaving NONE resets the counts (Core resets them when the
    /// level changes from NONE; here the next file request outside NONE does).
    func fileRequestLimitReached(_ function: String, app: AppState) -> Bool {
        app.hmiLevel == "NONE" && app.fileRequestsInNone[function, default: 0] >= Self.fileRequestsInNoneLimit
    }

    /// Counts a successful file request made in NONE; one outside NONE clears the counts.
    mutating func countFileRequest(_ function: String, session sessionID: UInt8) {
        guard var app = apps[sessionID] else { return }
        if app.hmiLevel == "NONE" {
            app.fileRequestsInNone[function, default: 0] += 1
        } else {
            app.fileRequestsInNone.removeAll()
        }
        apps[sessionID] = app
    }

    static let noneLimitInfo = "Too many requests from the app with NoneHMILevel"

    /// Stores the chunk of a PutFile: a whole file, the first chunk of one (`offset` 0, with the
    /// whole `length`), or a later chunk appended where the file ends. Its bytes are kept
    /// (``StoredFile``) within the app's quota and the head unit's file storage.
    mutating func putFile(_ request: Request) -> Reply {
        // The app is taken out while its file changes, so that its file's bytes have one owner and
        // a chunk is appended to them in place rather than to a copy.
        guard var app = apps.removeValue(forKey: request.sessionID) else { return .result("APPLICATION_NOT_REGISTERED") }
        let reply = putFile(request, into: &app)
        apps[request.sessionID] = app
        if case .result("SUCCESS", _, _) = reply { countFileRequest("PutFile", session: request.sessionID) }
        return reply
    }

    private mutating func putFile(_ request: Request, into app: inout AppState) -> Reply {
        let params = request.parameters
        if fileRequestLimitReached("PutFile", app: app) { return .result("REJECTED", info: Self.noneLimitInfo) }
        guard let data = request.bulkData, data.readableBytes > 0 else {
            return .result("INVALID_DATA", info: "Binary data empty")
        }
        let name = params["syncFileName"]?.stringValue ?? ""
        if name.isEmpty || name.contains("/") || Self.isBadText(name) || name == "." || name == ".." {
            return .result("INVALID_DATA", info: "Sync file name contains forbidden symbols")
        }
        if let expected = params["crc"]?.intValue {
            let actual = SDLCRC32.checksum(data)
            if Int64(actual) != expected {
                return .result("CORRUPTED_DATA", info: "CRC Check on file failed. File upload has been cancelled, please retry.")
            }
        }
        let chunk = data.readableBytes
        let offset = Int(params["offset"]?.intValue ?? 0)
        let length = params["length"]?.intValue.map(Int.init)
        let isSystemFile = params["systemFile"]?.boolValue ?? false
        let fileType = params["fileType"]?.stringValue ?? app.files[name]?.fileType ?? "BINARY"
        let isPersistent = params["persistentFile"]?.boolValue ?? false
        // Out of the app while it changes (one owner of its bytes); put back when refused.
        var existing = app.files.removeValue(forKey: name)
        func refuse(_ resultCode: String, _ info: String) -> Reply {
            app.files[name] = existing
            return .result(resultCode, info: info)
        }
        let newSize: Int
        let declaredLength: Int?
        if offset == 0 {
            // A new file, or the first chunk of one: `length` is the whole size.
            if let length, chunk > length {
                return refuse("INVALID_DATA", "The data (\(chunk) bytes) is longer than length \(length)")
            }
            newSize = chunk
            declaredLength = length.flatMap { $0 > chunk ? $0 : nil }
        } else {
            // A later chunk: it must continue the file exactly where it ends (Core compares the
            // offset with the stored size) and stay inside the declared length.
            let current = existing?.size ?? 0
            guard existing != nil, offset == current else {
                return refuse("INVALID_DATA", "Offset \(offset) does not match the stored size \(current) of \(name)")
            }
            if let total = existing?.declaredLength, offset + chunk > total {
                return refuse("INVALID_DATA", "Offset \(offset) + \(chunk) bytes is past length \(total)")
            }
            newSize = current + chunk
            declaredLength = existing?.declaredLength.flatMap { $0 > newSize ? $0 : nil }
        }
        if !isSystemFile, usedSpace(app) + Int64(newSize) > configuration.profile.appDirectoryQuota {
            return refuse("OUT_OF_MEMORY", "Not enough space for \(name)")
        }
        // The head unit's storage, for all apps together; a chunked upload reserves its length.
        let newStorage = max(newSize, declaredLength ?? 0)
        let othersStored = fileStorageUsed - (existing?.storageSize ?? 0)
        if othersStored + newStorage > configuration.fileStorageLimit {
            let free = max(configuration.fileStorageLimit - othersStored, 0)
            return refuse(
                "OUT_OF_MEMORY",
                "The head unit's file storage is full: \(name) needs \(newStorage) bytes, \(free) of \(configuration.fileStorageLimit) are free"
            )
        }
        var file: StoredFile
        if offset == 0 {
            file = StoredFile(
                fileType: fileType, isPersistent: isPersistent, isSystemFile: isSystemFile, bytes: data, declaredLength: declaredLength)
        } else {
            file = existing!
            existing = nil  // `file` alone holds the bytes: the chunk is appended without a copy
            file.fileType = fileType
            file.isPersistent = isPersistent
            file.isSystemFile = isSystemFile
            file.append(data)
        }
        fileStorageUsed = othersStored + file.storageSize
        app.files[name] = file
        return .success(["spaceAvailable": .int(spaceAvailable(app))], info: "File was downloaded")
    }

    mutating func listFiles(_ request: Request) -> Reply {
        guard let app = apps[request.sessionID] else { return .result("APPLICATION_NOT_REGISTERED") }
        if fileRequestLimitReached("ListFiles", app: app) { return .result("REJECTED", info: Self.noneLimitInfo) }
        countFileRequest("ListFiles", session: request.sessionID)
        let names = app.files.filter { !$0.value.isSystemFile }.keys.sorted().prefix(1000)
        // Core 8.2 leaves filenames out when the app has no files (docs/protocol.md §k).
        var result: [String: SDLJSON] = ["spaceAvailable": .int(spaceAvailable(app))]
        if !names.isEmpty { result["filenames"] = .array(names.map { .string($0) }) }
        return .success(result)
    }

    mutating func deleteFile(_ request: Request) -> Reply {
        changeApp(request) { unit, app in
            if unit.fileRequestLimitReached("DeleteFile", app: app) { return .refused(.result("REJECTED", info: Self.noneLimitInfo)) }
            let name = request.parameters["syncFileName"]?.stringValue ?? ""
            guard let file = app.files[name], !file.isSystemFile else {
                // Core 8.2 tells the space left even when it refuses (docs/protocol.md §k).
                return .refused(
                    .result("REJECTED", info: "File \(name) does not exist", parameters: ["spaceAvailable": .int(unit.spaceAvailable(app))])
                )
            }
            app.files[name] = nil
            unit.fileStorageUsed -= file.storageSize
            let space = unit.spaceAvailable(app)
            return .done { unit in
                unit.countFileRequest("DeleteFile", session: request.sessionID)
                return .success(["spaceAvailable": .int(space)])
            }
        }
    }

    /// Core answers INVALID_DATA when the file is not in the app's folder.
    mutating func setAppIcon(_ request: Request) -> Reply {
        changeApp(request) { _, app in
            let name = request.parameters["syncFileName"]?.stringValue ?? ""
            guard let file = app.files[name], !file.isSystemFile else {
                return .refused(.result("INVALID_DATA", info: "The file \(name) does not exist"))
            }
            app.iconFile = name
            return .done(.success())
        }
    }
}
