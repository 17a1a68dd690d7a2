import Foundation
import PackagePlugin

/// Embeds every file under a target's `Resources` directory in the target's code, so the
/// executable needs no resource bundle beside it: `SDLResourceEmbedder` writes one Swift file
/// declaring `EmbeddedResources`, re-run whenever a file there is added, changed or removed.
@main
struct EmbedResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = target.directoryURL.appending(path: "Resources")
        let files = Self.files(under: root)
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) resources of \(target.name)",
                executable: try context.tool(named: "SDLResourceEmbedder").url,
                arguments: [output.path(percentEncoded: false), root.path(percentEncoded: false)]
                    + files.map { $0.path(percentEncoded: false) },
                // The directories are inputs too (those behind a link included), so adding or
                // removing a file re-plans the build.
                inputFiles: Self.directories(under: root) + files,
                outputFiles: [output]
            )
        ]
    }

    /// `root` and every directory under it, where links to directories point.
    static func directories(under root: URL) -> [URL] {
        let resolved = root.resolvingSymlinksInPath()
        guard
            let enumerator = FileManager.default.enumerator(
                at: resolved, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        else {
            return [resolved]
        }
        var directories = [resolved]
        for case let url as URL in enumerator {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path(percentEncoded: false), isDirectory: &isDirectory), isDirectory.boolValue
            else { continue }
            if (try? url.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) == true {
                directories += Self.directories(under: url)
            } else {
                directories.append(url)
            }
        }
        return directories
    }

    /// The regular files under `root`, sorted, hidden ones left out. A symbolic link to a
    /// directory is followed (the Gateway's `Resources/public` is the package's top-level
    /// `public/`), keeping the link's path, so the files are named as if they were there.
    static func files(under root: URL) -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey], options: [.skipsHiddenFiles]
            )
        else {
            return []
        }
        var files: [URL] = []
        for case let url as URL in enumerator {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            if values?.isSymbolicLink == true {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: url.path(percentEncoded: false), isDirectory: &isDirectory), isDirectory.boolValue
                {
                    // Enumerated where the link points, named under the link.
                    let target = url.resolvingSymlinksInPath()
                    files += Self.files(under: target).map { file in
                        url.appending(
                            path: String(file.path(percentEncoded: false).dropFirst(target.path(percentEncoded: false).count + 1)))
                    }
                } else if FileManager.default.fileExists(atPath: url.path(percentEncoded: false)) {
                    files.append(url)
                }
            } else if values?.isRegularFile == true {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}
