import SDLProtocol
import SDLSpec

/// Vehicle data set by hand (the control API's `PUT /vehicle-data`), as the simulator's: an
/// override wins over the drive until it is removed with `null`.
extension HeadlessHMI {
    /// The vehicle data now: the latest sample with the overrides over it, by mobile API name.
    public var vehicleData: [String: SDLJSON] { answers.vehicleData }

    /// Sets (or with `null` removes) overrides, checked against OnVehicleData of `catalog`; Core
    /// gets the subscribed ones at once (`VehicleInfo.OnVehicleData`).
    public mutating func overrideVehicleData(_ values: [String: SDLJSON], catalog: SDLCatalog = .builtIn) throws(HMIError) -> [HMIMessage] {
        let set = values.filter { $0.value != .null }
        let issues: [SDLValidationIssue]
        do throws(SDLSpecError) {
            issues = try catalog.validate(.object(set), function: "OnVehicleData", messageType: .notification)
        } catch {
            throw HMIError(.invalidValue, "\(error)")
        }
        if let issue = issues.first { throw HMIError(.invalidValue, issue.message) }
        for (name, value) in values {
            if value == .null {
                // The drive's own value comes back with its next sample.
                vehicleOverrides.removeValue(forKey: name)
                answers.vehicleData.removeValue(forKey: name)
            } else {
                vehicleOverrides[name] = value
            }
        }
        return vehicleSample(set)
    }
}
