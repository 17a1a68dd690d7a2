#if canImport(Glibc)
import Glibc
#endif

// SwiftPM links executables through `<module>_main`, so instead of libFuzzer's own `main` each
// target hands the command line to libFuzzer's driver with its test function.

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Runs libFuzzer with `test`, which gets each input and returns 0; never returns.
public func runLibFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(runFuzzerDriver(&argc, &argv, test))
}

/// A property of the code under test: when it does not hold, the process traps, and libFuzzer
/// keeps the input as a crash. Unlike `assert`, it is checked in release builds, and unlike
/// `precondition` it prints its message there too.
@inline(__always)
public func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError(message())
    }
}
