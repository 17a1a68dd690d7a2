/// `Common.Result` of HMI_API.xml: the `code` of every HMI response (8, IN_USE in the mobile API,
/// is not part of it).
public enum HMIResult: Int64, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case success = 0
    case unsupportedRequest = 1
    case unsupportedResource = 2
    case disallowed = 3
    case rejected = 4
    case aborted = 5
    case ignored = 6
    case retry = 7
    case dataNotAvailable = 9
    case timedOut = 10
    case invalidData = 11
    case charLimitExceeded = 12
    case invalidID = 13
    case duplicateName = 14
    case applicationNotRegistered = 15
    case wrongLanguage = 16
    case outOfMemory = 17
    case tooManyPendingRequests = 18
    case noAppsRegistered = 19
    case noDevicesConnected = 20
    case warnings = 21
    case genericError = 22
    case userDisallowed = 23
    case truncatedData = 24
    case saved = 25
    case readOnly = 26

    /// Answered as a `result` (the others as an `error`), as Core's own HMI answers them.
    public var isSuccessful: Bool {
        [.success, .warnings, .wrongLanguage, .retry, .saved, .truncatedData, .unsupportedResource].contains(self)
    }

    /// The spec's name, e.g. `SUCCESS`, `INVALID_DATA`.
    public var description: String {
        switch self {
        case .success: "SUCCESS"
        case .unsupportedRequest: "UNSUPPORTED_REQUEST"
        case .unsupportedResource: "UNSUPPORTED_RESOURCE"
        case .disallowed: "DISALLOWED"
        case .rejected: "REJECTED"
        case .aborted: "ABORTED"
        case .ignored: "IGNORED"
        case .retry: "RETRY"
        case .dataNotAvailable: "DATA_NOT_AVAILABLE"
        case .timedOut: "TIMED_OUT"
        case .invalidData: "INVALID_DATA"
        case .charLimitExceeded: "CHAR_LIMIT_EXCEEDED"
        case .invalidID: "INVALID_ID"
        case .duplicateName: "DUPLICATE_NAME"
        case .applicationNotRegistered: "APPLICATION_NOT_REGISTERED"
        case .wrongLanguage: "WRONG_LANGUAGE"
        case .outOfMemory: "OUT_OF_MEMORY"
        case .tooManyPendingRequests: "TOO_MANY_PENDING_REQUESTS"
        case .noAppsRegistered: "NO_APPS_REGISTERED"
        case .noDevicesConnected: "NO_DEVICES_CONNECTED"
        case .warnings: "WARNINGS"
        case .genericError: "GENERIC_ERROR"
        case .userDisallowed: "USER_DISALLOWED"
        case .truncatedData: "TRUNCATED_DATA"
        case .saved: "SAVED"
        case .readOnly: "READ_ONLY"
        }
    }
}
