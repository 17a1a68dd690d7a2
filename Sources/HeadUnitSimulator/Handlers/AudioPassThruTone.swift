import NIOCore
import SDLProtocol

/// What the simulated microphone records for PerformAudioPassThru: a quiet, deterministic
/// 500 Hz triangle tone as raw PCM, mono, little-endian signed 16-bit or unsigned 8-bit. Public
/// so that tests and tools can tell whether what reached them is what the microphone sent.
public struct AudioPassThruTone: Sendable, Hashable {
    /// Samples per second: 8000, 16000, 22050 or 44100.
    public var sampleRate: Int
    /// 1 (8_BIT) or 2 (16_BIT).
    public var bytesPerSample: Int

    public static let frequency = 500

    /// From the request's SamplingRate and BitsPerSample names (``SDLAudioFormat``).
    public init?(samplingRate: String, bitsPerSample: String) {
        let format = SDLAudioFormat(samplingRate: samplingRate, bitsPerSample: bitsPerSample, audioType: "PCM")
        guard let rate = format.samplesPerSecond, let bits = format.bitsPerSampleCount else { return nil }
        self.init(sampleRate: rate, bytesPerSample: bits / 8)
    }

    public init(sampleRate: Int, bytesPerSample: Int) {
        self.sampleRate = sampleRate
        self.bytesPerSample = bytesPerSample
    }

    /// Samples in `milliseconds` of audio.
    public func samples(milliseconds: Int) -> Int {
        sampleRate * milliseconds / 1000
    }

    /// `count` samples starting at sample `start` of the tone.
    public func pcm(from start: Int, count: Int) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(count * bytesPerSample)
        let period = max(sampleRate / Self.frequency, 2)
        for index in start..<(start + count) {
            let phase = index % period
            // -1…1 triangle in steps of 1/period.
            let rising = phase < period / 2
            let level = rising ? Double(4 * phase) / Double(period) - 1 : 3 - Double(4 * phase) / Double(period)
            if bytesPerSample == 1 {
                buffer.writeInteger(UInt8(128 + Int((level * 8).rounded())))
            } else {
                buffer.writeInteger(Int16((level * 1000).rounded()), endianness: .little)
            }
        }
        return buffer
    }
}
