/// The audio a PerformAudioPassThru asks for (MOBILE_API.xml `AudioPassThruCapabilities`:
/// `SamplingRate`, `BitsPerSample`, `AudioType`): the head unit streams raw PCM in it as the bulk
/// data of OnAudioPassThru, mono (docs/protocol.md §c, bulk data).
/// App sessions name a recording's format with it, the simulator what its microphone sends.
public struct SDLAudioFormat: Sendable, Hashable {
    /// `8KHZ`, `16KHZ`, `22KHZ` or `44KHZ`.
    public var samplingRate: String
    /// `8_BIT` or `16_BIT`.
    public var bitsPerSample: String
    /// `PCM`.
    public var audioType: String

    public init(samplingRate: String, bitsPerSample: String, audioType: String) {
        self.samplingRate = samplingRate
        self.bitsPerSample = bitsPerSample
        self.audioType = audioType
    }

    /// From a PerformAudioPassThru's parameters; nil when one of the three is missing.
    public init?(request parameters: SDLJSON) {
        guard let rate = parameters["samplingRate"]?.stringValue, let bits = parameters["bitsPerSample"]?.stringValue,
            let type = parameters["audioType"]?.stringValue
        else { return nil }
        self.init(samplingRate: rate, bitsPerSample: bits, audioType: type)
    }

    /// Samples per second: 8000, 16000, 22050 or 44100 (the spec's `22KHZ` is CD audio's half);
    /// nil for a name the spec does not have.
    public var samplesPerSecond: Int? {
        ["8KHZ": 8000, "16KHZ": 16000, "22KHZ": 22050, "44KHZ": 44100][samplingRate]
    }

    /// 8 or 16; nil for a name the spec does not have.
    public var bitsPerSampleCount: Int? {
        ["8_BIT": 8, "16_BIT": 16][bitsPerSample]
    }

    /// Bytes of PCM per second of audio, when the rate and size are known.
    public var bytesPerSecond: Int? {
        guard let rate = samplesPerSecond, let bits = bitsPerSampleCount else { return nil }
        return rate * bits / 8
    }

    public var json: SDLJSON {
        ["samplingRate": .string(samplingRate), "bitsPerSample": .string(bitsPerSample), "audioType": .string(audioType)]
    }
}
