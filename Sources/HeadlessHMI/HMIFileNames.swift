import SDLProtocol

/// The files SDL Core named for one app in what it sent this HMI, by name: the last component of
/// each full path (docs/protocol.md §l: Core rewrites a DYNAMIC image's `value` to the file's
/// full path in the app's storage folder, `MessageHelper::VerifyImage`; the app's icon is a full
/// path in `BasicCommunication.OnAppRegistered`). Only these paths are ever read for the control
/// API's `GET /apps/{appID}/files/{name}`: a name Core never sent reads nothing.
///
/// At most ``capacity`` names are kept; a new one beyond that forgets the oldest. A name Core
/// sends again with another path (another folder) names the newer path.
public struct HMIFileNames: Sendable, Hashable {
    /// How many names an app keeps.
    public static let capacity = 256
    /// The longest path kept (Linux's PATH_MAX).
    static let maximumPathLength = 4096

    /// Full paths by name.
    public private(set) var paths: [String: String] = [:]
    /// The names, oldest first.
    private var order: [String] = []

    public init() {}

    /// The name of a full path: its last component; nil for what is not a plain absolute path of
    /// a file: relative, a directory, a NUL, too long, or with an empty, `.` or `..` component.
    /// Core does not normalise the path it builds from an app's image name
    /// (`MessageHelper::GetAppFilePath`), so an app could name `../../etc/passwd`; such a path is
    /// never remembered, so never read.
    public static func name(ofPath path: String) -> String? {
        guard path.hasPrefix("/"), path.utf8.count <= maximumPathLength, !path.contains("\0") else { return nil }
        let components = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard let last = components.last, components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        return String(last)
    }

    /// The full path Core named `name` with, if it did.
    public func path(named name: String) -> String? { paths[name] }

    /// Remembers `path` by its name.
    public mutating func remember(path: String) {
        guard let name = Self.name(ofPath: path) else { return }
        if paths.updateValue(path, forKey: name) == nil {
            order.append(name)
        } else {
            order.removeAll { $0 == name }
            order.append(name)
        }
        while order.count > Self.capacity {
            paths.removeValue(forKey: order.removeFirst())
        }
    }

    /// Remembers the `value` of every DYNAMIC `Image` in `json` (any depth, as Core nests them in
    /// soft buttons, choices, menu parameters, …).
    public mutating func remember(imagesIn json: SDLJSON) {
        Self.visitImages(json) { value in remember(path: value) }
    }

    /// `json` with a `name` beside the `value` of each DYNAMIC `Image` whose path this app's
    /// names hold: what the files route takes.
    public func named(_ json: SDLJSON) -> SDLJSON {
        Self.mapImages(json, depth: 0) { image in
            guard let value = image["value"]?.stringValue, let name = Self.name(ofPath: value), paths[name] == value else { return image }
            var image = image
            image["name"] = .string(name)
            return image
        }
    }

    /// The deepest nesting walked: Core's images sit at most a few levels down.
    static let maximumDepth = 12

    static func isDynamicImage(_ object: [String: SDLJSON]) -> Bool {
        object["imageType"]?.stringValue == "DYNAMIC" && object["value"]?.stringValue != nil
    }

    static func visitImages(_ json: SDLJSON, depth: Int = 0, _ visit: (String) -> Void) {
        guard depth < maximumDepth else { return }
        switch json {
        case .object(let object):
            if isDynamicImage(object), let value = object["value"]?.stringValue {
                visit(value)
                return
            }
            for value in object.values { visitImages(value, depth: depth + 1, visit) }
        case .array(let array):
            for value in array { visitImages(value, depth: depth + 1, visit) }
        default:
            break
        }
    }

    static func mapImages(_ json: SDLJSON, depth: Int, _ transform: ([String: SDLJSON]) -> [String: SDLJSON]) -> SDLJSON {
        guard depth < maximumDepth else { return json }
        switch json {
        case .object(let object):
            if isDynamicImage(object) { return .object(transform(object)) }
            return .object(object.mapValues { mapImages($0, depth: depth + 1, transform) })
        case .array(let array):
            return .array(array.map { mapImages($0, depth: depth + 1, transform) })
        default:
            return json
        }
    }
}
