import FuzzSupport
import NIOCore

// Input: byte 0 picks the size of the reads the file arrives in (as `sdl-gateway inspect` reads
// a file or standard input in chunks), and the rest is the capture file (SDLCapture).
//
// Checked: the file decodes to the same header, records and error whether it arrives whole or in
// small reads; a read that needs more bytes or throws consumes nothing; an error is a capture
// error with an offset inside the file; what decodes re-encodes to a file that decodes to the
// same header and records (byte for byte when the header has no fields this reader skips).
runLibFuzzer { data, count in
    let input = UnsafeBufferPointer(start: data, count: count)
    guard input.count >= 1 else { return 0 }
    let readSize = Int(input[0] % 64) + 1
    let file = ByteBuffer(bytes: input[1...])
    let whole = CaptureRead.run(file, readSize: nil)
    let inReads = CaptureRead.run(file, readSize: readSize)
    check(whole == inReads, "a file read in \(readSize)-byte pieces decodes differently:\n\(whole)\n\(inReads)")
    whole.checkRoundTrip(of: file)
    return 0
}
