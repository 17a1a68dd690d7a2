import Foundation
import SDLSpec

/// Where the tests find MOBILE_API.xml: `../shared/sdl-spec/` next to the package root. The XML
/// is not part of the repository, so tests that need it are skipped when it is absent.
enum SpecFixture {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SDLSpecTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root

    static let mobileAPI =
        packageRoot
        .deletingLastPathComponent()
        .appendingPathComponent("shared/sdl-spec/MOBILE_API.xml")

    static var isAvailable: Bool { FileManager.default.fileExists(atPath: mobileAPI.path) }

    static let generatedSource = packageRoot.appendingPathComponent("Sources/SDLSpec/Generated/BuiltInCatalog.swift")

    /// A minimal spec with a FunctionID enum, for loader tests.
    static func xml(_ body: String, interface: Bool = true) -> Data {
        let functionIDs = """
            <enum name="FunctionID">
                <element name="ShowID" value="13" hexvalue="D"/>
                <element name="OnHMIStatusID" value="0x8000"/>
                <element name="OnlyHexID" hexvalue="10000"/>
            </enum>
            """
        let text =
            interface
            ? "<?xml version=\"1.0\"?>\n<interface name=\"t\" version=\"9.9.9\">\n\(functionIDs)\n\(body)\n</interface>\n"
            : "<?xml version=\"1.0\"?>\n<api>\(body)</api>\n"
        return Data(text.utf8)
    }
}
