import NIOCore
import Synchronization

/// The gateway's image store (`/v1/images`): images kept by the gateway, bounded in bytes, that
/// the managers upload to a head unit when a declaration names one the head unit lacks (checked
/// with ListFiles), and again after a head-unit restart lost it. One store serves every app, so
/// an image uploaded once reaches each app's head unit when needed.
final class ImageStore: Sendable {
    struct Image: Sendable {
        var bytes: ByteBuffer
        /// GRAPHIC_PNG, GRAPHIC_JPEG or GRAPHIC_BMP.
        var fileType: String
    }

    /// The file types an image may have, by the `Content-Type` of its bytes.
    static let fileTypes: [String: String] = ["GRAPHIC_PNG": "image/png", "GRAPHIC_JPEG": "image/jpeg", "GRAPHIC_BMP": "image/bmp"]
    /// At most this many images, whatever their size.
    static let maximumCount = 1000

    /// All images together hold at most this many bytes.
    let capacity: Int
    private let images = Mutex<[String: Image]>([:])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Stores `image` under `name`, replacing an image of that name; whether it replaced one.
    /// `insufficientStorage` when it would not fit beside the others (nothing is evicted: what a
    /// declaration uses must stay).
    func put(_ name: String, _ image: Image) throws(GatewayError) -> Bool {
        try images.withLock { images throws(GatewayError) -> Bool in
            let others = images.filter { $0.key != name }
            let used = others.values.reduce(0) { $0 + $1.bytes.readableBytes }
            guard used + image.bytes.readableBytes <= capacity else {
                throw GatewayError(
                    .insufficientStorage,
                    "the image store holds \(used) of \(capacity) bytes; \(name) (\(image.bytes.readableBytes) bytes) does not fit (limits.imageStoreSize)"
                )
            }
            guard others.count < Self.maximumCount else {
                throw GatewayError(.insufficientStorage, "the image store holds \(Self.maximumCount) images already")
            }
            return images.updateValue(image, forKey: name) != nil
        }
    }

    func image(_ name: String) -> Image? { images.withLock { $0[name] } }

    /// Whether there was an image `name`.
    func remove(_ name: String) -> Bool { images.withLock { $0.removeValue(forKey: name) != nil } }

    /// Every image's name, file type and size, by name; the bytes used.
    var list: (images: [(name: String, fileType: String, size: Int)], used: Int) {
        images.withLock { images in
            let list = images.map { (name: $0.key, fileType: $0.value.fileType, size: $0.value.bytes.readableBytes) }.sorted {
                $0.name < $1.name
            }
            return (list, list.reduce(0) { $0 + $1.size })
        }
    }
}
