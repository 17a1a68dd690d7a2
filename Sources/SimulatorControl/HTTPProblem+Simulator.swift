import HTTPAPISupport
import HeadUnitSimulator
import Hummingbird

extension HTTPProblem {
    static func invalidBody(_ detail: String) -> HTTPProblem {
        HTTPProblem(status: .badRequest, code: "invalid-body", title: "The request body is not valid", detail: detail)
    }

    /// A well-formed value the control API does not take (an unknown name, a number out of range): 422 `invalid-value`.
    static func invalidValue(_ detail: String) -> HTTPProblem {
        HTTPProblem(status: .unprocessableContent, code: "invalid-value", title: "A value is not allowed", detail: detail)
    }

    /// The simulator's control errors as problems with stable codes.
    init(_ error: SimulatorControlError) {
        switch error.code {
        case .appNotFound: self.init(status: .notFound, code: "app-not-found", title: "No such app", detail: error.detail)
        case .commandNotFound: self.init(status: .notFound, code: "command-not-found", title: "No such command", detail: error.detail)
        case .noOpenInteraction: self.init(status: .conflict, code: "no-open-interaction", title: "Nothing to answer", detail: error.detail)
        default: self = .invalidValue(error.detail)
        }
    }
}
