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
                arguments: [output.path(percentEncoded: false), root.path(percentEncoded: false)] + files.map { $0.path(percentEncoded: false) },
                // The directory itself is an input too, so adding or removing a file re-plans the build.
                inputFiles: [root] + files,
                outputFiles: [output]
            )
        ]
    }

    /// The regular files under `root`, sorted, hidden ones left out.
    static func files(under root: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }
}
