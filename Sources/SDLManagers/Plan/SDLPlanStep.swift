/// One step of an ``SDLManagerPlan``, executed in order by the driver.
public enum SDLPlanStep: Sendable, Hashable, CustomStringConvertible {
    /// Make sure the dynamic image file `name` is on the head unit: the driver checks its
    /// ListFiles answer and uploads the file (PutFile) only when the head unit lacks it. Always
    /// placed before the first request that uses the image.
    case ensureFile(String)
    /// Send this request and wait for a successful response before the next step.
    case request(SDLPlannedRequest)

    public var description: String {
        switch self {
        case .ensureFile(let name): "ensureFile \(name)"
        case .request(let request): request.description
        }
    }
}
