import NIOCore

/// The WAV file of mono PCM: a RIFF `WAVE` with a 16-byte `fmt ` chunk (format 1, PCM) and a
/// `data` chunk, every number little-endian. 8-bit samples are unsigned, 16-bit signed, as WAV
/// and SDL's PCM both have them.
enum WAVFile {
    static let headerSize = 44

    static func encode(pcm: ByteBuffer, samplesPerSecond: Int, bitsPerSample: Int) -> ByteBuffer {
        let blockAlign = bitsPerSample / 8
        var file = ByteBuffer()
        file.reserveCapacity(headerSize + pcm.readableBytes)
        file.writeString("RIFF")
        file.writeInteger(UInt32(truncatingIfNeeded: 36 + pcm.readableBytes), endianness: .little)
        file.writeString("WAVE")
        file.writeString("fmt ")
        file.writeInteger(UInt32(16), endianness: .little)
        file.writeInteger(UInt16(1), endianness: .little)  // PCM
        file.writeInteger(UInt16(1), endianness: .little)  // mono
        file.writeInteger(UInt32(samplesPerSecond), endianness: .little)
        file.writeInteger(UInt32(samplesPerSecond * blockAlign), endianness: .little)  // bytes per second
        file.writeInteger(UInt16(blockAlign), endianness: .little)
        file.writeInteger(UInt16(bitsPerSample), endianness: .little)
        file.writeString("data")
        file.writeInteger(UInt32(truncatingIfNeeded: pcm.readableBytes), endianness: .little)
        file.writeImmutableBuffer(pcm)
        return file
    }
}
