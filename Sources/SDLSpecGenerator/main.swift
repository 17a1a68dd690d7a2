// sdl-spec-gen: regenerates Sources/SDLSpec/Generated/BuiltInCatalog.swift from MOBILE_API.xml.
//
//     swift run sdl-spec-gen <path to MOBILE_API.xml> Sources/SDLSpec/Generated/BuiltInCatalog.swift
//
// The XML is parsed with SDLCatalog(contentsOf:), the same loader as `--rpc-spec`, and written
// as the catalog's JSON form in a raw string literal. The output depends only on the spec.
import Foundation
import SDLSpec

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let input = arguments.first, let output = arguments.last else {
    FileHandle.standardError.write(Data("usage: sdl-spec-gen <MOBILE_API.xml> <output.swift>\n".utf8))
    exit(2)
}

do {
    let inputURL = URL(fileURLWithPath: input)
    let catalog = try SDLCatalog(contentsOf: inputURL)
    let source = catalog.generatedSwiftSource(specFileName: inputURL.lastPathComponent)
    try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    print(
        "sdl-spec-gen: rpc_spec \(catalog.version): \(catalog.functions.count) functions, \(catalog.enums.count) enums, \(catalog.structs.count) structs -> \(output)"
    )
} catch {
    FileHandle.standardError.write(Data("sdl-spec-gen: \(error)\n".utf8))
    exit(1)
}
