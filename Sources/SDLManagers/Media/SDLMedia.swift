/// The declared media state (the `media` resource): what is playing and the clock.
///
/// `track`, `artist` and `album` become the main text fields with `metadataTags` `mediaTitle`,
/// `mediaArtist`, `mediaAlbum`, and `artwork` the primary graphic, wherever the declared
/// ``SDLScreen`` leaves those empty: a screen's `textFields`, when it declares any, replace the
/// media text entirely, and its `primaryGraphic` wins over the artwork.
public struct SDLMedia: Sendable, Hashable, Codable {
    public var track: String?
    public var artist: String?
    public var album: String?
    public var artwork: String?
    public var clock: SDLMediaClock?

    public init(track: String? = nil, artist: String? = nil, album: String? = nil, artwork: String? = nil, clock: SDLMediaClock? = nil) {
        self.track = track
        self.artist = artist
        self.album = album
        self.artwork = artwork
        self.clock = clock
    }

    /// The text lines with their `MetadataType`s, empty ones dropped.
    var textLines: [(text: String, tag: String)] {
        [(track, "mediaTitle"), (artist, "mediaArtist"), (album, "mediaAlbum")].compactMap { text, tag in
            guard let text, !text.isEmpty else { return nil }
            return (text, tag)
        }
    }
}
