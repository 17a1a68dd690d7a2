// swift-tools-version: 6.2
// libFuzzer targets, one concern each. Build and run with ./run-fuzz.sh TARGET|all [SECONDS].
import PackageDescription

let package = Package(
    name: "FuzzTesting",
    dependencies: [
        .package(name: "sdl-gateway", path: ".."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
    ],
    targets: [
        // The libFuzzer entry point and the check that traps, shared by the targets.
        .target(name: "FuzzSupport"),
        // Frame decoder and message assembler over arbitrary byte streams, with MTU changes.
        .executableTarget(
            name: "FuzzFrameDecoder",
            dependencies: [
                "FuzzSupport",
                .product(name: "SDLProtocol", package: "sdl-gateway"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // BSON documents: decode, and a byte-exact re-encode of what decodes.
        .executableTarget(
            name: "FuzzBSON",
            dependencies: [
                "FuzzSupport",
                .product(name: "SDLProtocol", package: "sdl-gateway"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // RPC payloads (binary header + JSON, and the v1 wrapper) and the JSON parser.
        .executableTarget(
            name: "FuzzRPCJSON",
            dependencies: [
                "FuzzSupport",
                .product(name: "SDLProtocol", package: "sdl-gateway"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // Arbitrary JSON parameters against arbitrary functions of the built-in catalog.
        .executableTarget(
            name: "FuzzSpecValidator",
            dependencies: [
                "FuzzSupport",
                .product(name: "SDLProtocol", package: "sdl-gateway"),
                .product(name: "SDLSpec", package: "sdl-gateway"),
            ]
        ),
        // Capture files (serve --record, read by inspect) over arbitrary bytes in any chunking.
        .executableTarget(
            name: "FuzzCaptureDecoder",
            dependencies: [
                "FuzzSupport",
                .product(name: "SDLProtocol", package: "sdl-gateway"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
