import NIOCore

/// H.264-like bytes for the video scenario: Annex B access units (a 4-byte start code, a NAL
/// header, then pseudo-random slice bytes without zeros, so that no start code appears inside),
/// an IDR picture of 64 KiB every 30 frames and P pictures of 16–32 KiB between, as an encoder
/// at a few Mbit/s writes them. No codec is needed: the gateway and the head unit carry the bytes
/// without looking into them (docs/protocol.md §o); the pattern only makes a reordered or lost
/// piece visible when the head unit's kept bytes are compared.
struct VideoPayload: Sendable {
    /// One buffer per encoded frame: what a browser's `VideoEncoder` hands over, one WebSocket
    /// message or one `sendStream` call each.
    let frames: [ByteBuffer]
    /// The frames one after another: the streamed POST body, and what the head unit must hold.
    let stream: ByteBuffer

    var size: Int { stream.readableBytes }

    /// Frames until `size` bytes (the last one cut to fit).
    init(size: Int, seed: UInt32 = 0x2545_F491) {
        var sizes: [Int] = []
        var total = 0
        while total < size {
            let index = sizes.count
            let frame = index % 30 == 0 ? 65_536 : 16_384 + (index &* 7_919) % 16_384
            sizes.append(min(frame, size - total))
            total += sizes.last!
        }
        self.init(sizes: sizes, seed: seed)
    }

    /// `count` frames of `frameSize` bytes each (the latency scenario's paced messages).
    init(count: Int, frameSize: Int, seed: UInt32 = 0x9E37_79B9) {
        self.init(sizes: Array(repeating: frameSize, count: count), seed: seed)
    }

    private init(sizes: [Int], seed: UInt32) {
        var state = seed
        var stream = ByteBuffer()
        stream.reserveCapacity(sizes.reduce(0, +))
        var frames: [ByteBuffer] = []
        frames.reserveCapacity(sizes.count)
        for (index, size) in sizes.enumerated() {
            var bytes = [UInt8](repeating: 0, count: size)
            // Start code 00 00 00 01, then nal_unit_type 5 (IDR, nal_ref_idc 3) or 1 (non-IDR, 2).
            let header: [UInt8] = [0, 0, 0, 1, index % 30 == 0 ? 0x65 : 0x41]
            for position in 0..<min(header.count, size) { bytes[position] = header[position] }
            for position in min(header.count, size)..<size {
                state = state &* 1_664_525 &+ 1_013_904_223
                bytes[position] = UInt8(truncatingIfNeeded: state >> 24) | 1
            }
            let frame = ByteBuffer(bytes: bytes)
            stream.writeImmutableBuffer(frame)
            frames.append(frame)
        }
        self.frames = frames
        self.stream = stream
    }
}
