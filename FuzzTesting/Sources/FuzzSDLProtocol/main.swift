#if canImport(Glibc)
import Glibc
#endif

// SwiftPM links executables through `<module>_main`, so instead of libFuzzer's own `main` this
// entry point hands the command line to libFuzzer's driver with the test function.

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
let status = runFuzzerDriver(&argc, &argv, { data, count in fuzz(data, count) })
exit(status)
