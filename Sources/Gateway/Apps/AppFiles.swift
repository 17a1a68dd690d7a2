import Synchronization

/// The files an app's head unit is known to hold, from ListFiles, PutFile and DeleteFile
/// (MOBILE_API.xml; docs/protocol.md), and the space it said is left.
struct AppFiles: Sendable, Hashable {
    var names: Set<String> = []
    var spaceAvailable: Int64?

    /// Notes what a file request said: `all` (ListFiles, or `[]` on a new registration) replaces
    /// the names, then `added` and `removed` change them; `spaceAvailable` when the answer had it.
    mutating func note(added: String? = nil, removed: String? = nil, all: [String]? = nil, spaceAvailable: Int64?) {
        if let all { names = Set(all) }
        if let added { names.insert(added) }
        if let removed { names.remove(removed) }
        if let spaceAvailable { self.spaceAvailable = spaceAvailable }
    }
}

extension GatewayApps {
    /// The files app `id`'s head unit is known to hold (from ListFiles, PutFile and DeleteFile).
    func knownFiles(_ id: String) -> Set<String> {
        state.withLock { $0.apps[id]?.files.names ?? [] }
    }

    /// Remembers what a file request said about app `id`'s files.
    func noteFiles(_ id: String, added: String? = nil, removed: String? = nil, all: [String]? = nil, spaceAvailable: Int64?) {
        state.withLock { $0.noteFiles(id, added: added, removed: removed, all: all, spaceAvailable: spaceAvailable) }
    }

    /// The key of app `id`'s (current incarnation's) copy of `name`; nil when there is no app `id`.
    func uploadedImageKey(_ id: String, name: String) -> UploadedImageCopies.Key? {
        state.withLock { $0.incarnation(of: id) }.map { UploadedImageCopies.Key(app: id, incarnation: $0, name: name) }
    }
}
