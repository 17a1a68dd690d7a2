import HeadUnitModel
import SDLProtocol

/// The head unit's streaming capability, as the HMI advertises it to Core and checks Core's
/// `Navigation.SetVideoConfig` against it (HMI_API.xml `Common.VideoStreamingCapability`,
/// `Common.VideoConfig`).
extension HMIAnswers {
    /// The profile's `videoStreamingCapability` (its `systemCapabilities.VIDEO_STREAMING`), if any.
    public var videoStreamingCapability: [String: SDLJSON]? {
        profile.systemCapability("VIDEO_STREAMING")?["videoStreamingCapability"]?.objectValue
    }

    /// `UI.GetCapabilities`' `systemCapabilities` (`Common.SystemCapabilities`): navigation, phone,
    /// video streaming and driver distraction capabilities from the profile. Core keeps
    /// `videoStreamingCapability` for its apps' GetSystemCapability(VIDEO_STREAMING)
    /// (ui_get_capabilities_response.cc).
    var systemCapabilities: [String: SDLJSON] {
        let members = [
            "NAVIGATION": "navigationCapability", "PHONE_CALL": "phoneCapability",
            "VIDEO_STREAMING": "videoStreamingCapability", "DRIVER_DISTRACTION": "driverDistractionCapability",
        ]
        var result: [String: SDLJSON] = [:]
        for (type, member) in members {
            if let value = profile.systemCapability(type)?[member] { result[member] = value }
        }
        return result
    }

    /// The members of a `SetVideoConfig` `config` this head unit does not support, in Core's names
    /// (`protocol`, `codec`, `width`, `height`); empty when it accepts the configuration.
    ///
    /// - `protocol` and `codec` must be a `supportedFormats` entry of the capability or of one of its
    ///   `additionalVideoStreamingCapabilities`: an unknown protocol is rejected as `protocol`, an
    ///   unknown codec or one not offered with that protocol as `codec`;
    /// - `width` and `height` must be 1 … the largest `preferredResolution` advertised (an app may
    ///   stream a smaller picture: the SDL libraries divide the resolution by `scale`).
    ///
    /// A head unit that advertises no capability accepts every configuration (generic_hmi does).
    public func rejectedVideoConfig(_ config: [String: SDLJSON]) -> [String] {
        guard let capability = videoStreamingCapability else { return [] }
        let capabilities = [capability] + (capability["additionalVideoStreamingCapabilities"]?.arrayValue ?? []).compactMap(\.objectValue)
        let formats = capabilities.flatMap { $0["supportedFormats"]?.arrayValue ?? [] }.compactMap { format -> (String, String)? in
            guard let proto = format["protocol"]?.stringValue, let codec = format["codec"]?.stringValue else { return nil }
            return (proto, codec)
        }
        var rejected: [String] = []
        let proto = config["protocol"]?.stringValue
        let codec = config["codec"]?.stringValue
        if let proto, !formats.contains(where: { $0.0 == proto }) { rejected.append("protocol") }
        if let codec, !formats.contains(where: { $0.1 == codec && (proto == nil || rejected.contains("protocol") || $0.0 == proto) }) {
            rejected.append("codec")
        }
        let resolutions = capabilities.compactMap { $0["preferredResolution"]?.objectValue }
        for (param, member) in [("width", "resolutionWidth"), ("height", "resolutionHeight")] {
            guard let value = config[param] else { continue }
            let largest = resolutions.compactMap { $0[member]?.intValue }.max()
            guard let size = value.intValue, size >= 1, largest.map({ size <= $0 }) ?? true else {
                rejected.append(param)
                continue
            }
        }
        return rejected
    }
}
