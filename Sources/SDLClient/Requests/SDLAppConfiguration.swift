import SDLProtocol

/// Who the app is to the head unit: the parameters of its RegisterAppInterface request
/// (MOBILE_API.xml 8.0.0; docs/protocol.md §f). ``SDLRegistrationParameters`` checks it and turns
/// it into the request's JSON.
///
/// SDL Core identifies apps by `fullAppID` (when present and `UseFullAppID=true`) or `appID`, and
/// all sessions of one gateway share one device, so each session needs its own app id and app
/// name (docs/protocol.md §e "Registration and limits").
public struct SDLAppConfiguration: Sendable, Hashable, Codable {
    /// `syncMsgVersion`: the RPC spec version the app speaks (`majorVersion` 1–10, `minorVersion`
    /// and `patchVersion` 0–1000).
    public struct MessageVersion: Sendable, Hashable, Codable {
        public var major: Int
        public var minor: Int
        public var patch: Int

        public init(major: Int, minor: Int, patch: Int = 0) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        /// 8.0.0, the version of MOBILE_API.xml this client is built from.
        public static let rpcSpec = MessageVersion(major: 8, minor: 0, patch: 0)
    }

    /// A `TTSChunk`: text (at most 500 characters) and its `SpeechCapabilities` type.
    public struct TTSChunk: Sendable, Hashable, Codable {
        public var text: String
        public var type: String

        public init(text: String, type: String = "TEXT") {
            self.text = text
            self.type = type
        }
    }

    /// `DeviceInfo`: strings of at most 500 characters, `maxNumberRFCOMMPorts` 0–100.
    public struct DeviceInfo: Sendable, Hashable, Codable {
        public var hardware: String?
        public var firmwareRev: String?
        public var os: String?
        public var osVersion: String?
        public var carrier: String?
        public var maxNumberRFCOMMPorts: Int?

        public init(
            hardware: String? = "sdl-gateway",
            firmwareRev: String? = nil,
            os: String? = "Linux",
            osVersion: String? = nil,
            carrier: String? = nil,
            maxNumberRFCOMMPorts: Int? = nil
        ) {
            self.hardware = hardware
            self.firmwareRev = firmwareRev
            self.os = os
            self.osVersion = osVersion
            self.carrier = carrier
            self.maxNumberRFCOMMPorts = maxNumberRFCOMMPorts
        }

        /// `hardware` "sdl-gateway", `os` "Linux".
        public static let gateway = DeviceInfo()
    }

    /// The app's icon: uploaded as a persistent file and made the app icon (PutFile, then
    /// SetAppIcon) after RegisterAppInterface whenever the head unit did not resume it
    /// (`iconResumed` is not true), as the SDL app libraries' lifecycle managers do.
    public struct AppIcon: Sendable, Hashable, Codable {
        /// `syncFileName` of the icon file (at most 255 characters).
        public var name: String
        /// `fileType`: GRAPHIC_PNG, GRAPHIC_JPEG or GRAPHIC_BMP.
        public var fileType: String
        /// The image bytes.
        public var data: [UInt8]

        public init(name: String, fileType: String = "GRAPHIC_PNG", data: [UInt8]) {
            self.name = name
            self.fileType = fileType
            self.data = data
        }

        /// The image file types SetAppIcon can show.
        public static let imageFileTypes: Set<String> = ["GRAPHIC_PNG", "GRAPHIC_JPEG", "GRAPHIC_BMP"]
        /// The largest icon accepted (icons are small; this keeps the configuration small too).
        public static let maximumSize = 1 << 20
    }

    /// `appName`: at most 100 characters, not blank, no tab or newline.
    public var appName: String
    /// `appID`: at most 100 characters.
    public var appID: String
    /// `fullAppID`: at most 100 characters.
    public var fullAppID: String?
    /// `isMediaApplication`.
    public var isMediaApplication: Bool
    /// `appHMIType`: `AppHMIType` names, 1–100 of them; empty leaves the param out.
    public var appHMIType: [String]
    /// `languageDesired`: a `Language` in wire form, e.g. `EN-US`.
    public var languageDesired: String
    /// `hmiDisplayLanguageDesired`: a `Language` in wire form.
    public var hmiDisplayLanguageDesired: String
    /// `ttsName`: 1–100 chunks; empty leaves the param out.
    public var ttsName: [TTSChunk]
    /// `vrSynonyms`: 1–100 strings of at most 40 characters; empty leaves the param out.
    public var vrSynonyms: [String]
    /// `ngnMediaScreenAppName`: at most 100 characters.
    public var ngnMediaScreenAppName: String?
    /// `dayColorScheme`: a `TemplateColorScheme` object.
    public var dayColorScheme: SDLJSON?
    /// `nightColorScheme`: a `TemplateColorScheme` object.
    public var nightColorScheme: SDLJSON?
    /// `deviceInfo`; `nil` leaves it out.
    public var deviceInfo: DeviceInfo?
    /// `syncMsgVersion`.
    public var syncMsgVersion: MessageVersion
    /// `hashID`: the latest OnHashChange `hashID`, to ask for resumption (docs/protocol.md §k);
    /// at most 100 characters.
    public var hashID: String?
    /// The app icon to upload after registering, if any.
    public var appIcon: AppIcon?

    public init(
        appName: String,
        appID: String,
        fullAppID: String? = nil,
        isMediaApplication: Bool = false,
        appHMIType: [String] = ["DEFAULT"],
        languageDesired: String = "EN-US",
        hmiDisplayLanguageDesired: String = "EN-US",
        ttsName: [TTSChunk] = [],
        vrSynonyms: [String] = [],
        ngnMediaScreenAppName: String? = nil,
        dayColorScheme: SDLJSON? = nil,
        nightColorScheme: SDLJSON? = nil,
        deviceInfo: DeviceInfo? = .gateway,
        syncMsgVersion: MessageVersion = .rpcSpec,
        hashID: String? = nil,
        appIcon: AppIcon? = nil
    ) {
        self.appName = appName
        self.appID = appID
        self.fullAppID = fullAppID
        self.isMediaApplication = isMediaApplication
        self.appHMIType = appHMIType
        self.languageDesired = languageDesired
        self.hmiDisplayLanguageDesired = hmiDisplayLanguageDesired
        self.ttsName = ttsName
        self.vrSynonyms = vrSynonyms
        self.ngnMediaScreenAppName = ngnMediaScreenAppName
        self.dayColorScheme = dayColorScheme
        self.nightColorScheme = nightColorScheme
        self.deviceInfo = deviceInfo
        self.syncMsgVersion = syncMsgVersion
        self.hashID = hashID
        self.appIcon = appIcon
    }
}
