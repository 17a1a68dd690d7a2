// swift-tools-version: 6.2
// libFuzzer targets for SDLProtocol. Build and run with ./run-fuzz.sh (see README.md).
import PackageDescription

let package = Package(
    name: "FuzzTesting",
    dependencies: [
        .package(name: "sdl-gateway", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "FuzzSDLProtocol",
            dependencies: [.product(name: "SDLProtocol", package: "sdl-gateway")]
        )
    ],
    swiftLanguageModes: [.v6]
)
