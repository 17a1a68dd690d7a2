import FuzzSupport
import NIOCore

// Input: byte 0 picks the payload limit the decoder starts with, byte 1 the size of the reads the
// stream arrives in, and the rest is the byte stream a head unit (or an app) sends.
//
// Checked: the stream decodes to the same frames, messages and errors whether it arrives whole or
// in small reads; every frame re-encodes to exactly the bytes it was read from and respects the
// payload limit in force (a StartServiceACK's mtu moves it); the assembler's memory accounting
// stays within its limits and returns to zero; every reassembled message fragments and
// reassembles to itself; every control frame that decodes re-encodes to itself.
runLibFuzzer { data, count in
    let input = UnsafeBufferPointer(start: data, count: count)
    guard input.count >= 2 else { return 0 }
    let limit = FrameStream.initialPayloadLimit(selector: input[0])
    let readSize = Int(input[1] % 32) + 1
    let stream = ByteBuffer(bytes: input[2...])
    let whole = FrameStream.run(stream, payloadLimit: limit, readSize: nil)
    let inReads = FrameStream.run(stream, payloadLimit: limit, readSize: readSize)
    check(whole == inReads, "a stream read in \(readSize)-byte pieces decodes differently:\n\(whole)\n\(inReads)")
    return 0
}
