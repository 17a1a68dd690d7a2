import SDLClient
import SDLProtocol
import Testing

@testable import Gateway

@Suite("Session events as gateway events")
struct AppEventMappingTests {
    @Test("Events the session could not keep reach clients as a gap with their count; notifications keep their types")
    func mapping() {
        let lost = AppEventMapping.map(.lost(count: 96))
        #expect(lost.type == "gap")
        #expect(lost.data == ["missed": 96])
        let speed = AppEventMapping.map(.app(.notification(name: "OnVehicleData", parameters: ["speed": 42])))
        #expect(speed.type == "vehicleData" && speed.data == ["speed": 42])
        let other = AppEventMapping.map(.app(.notification(name: "OnWayPointChange", parameters: [:])))
        #expect(other.type == "notification" && other.data["name"] == "OnWayPointChange")
    }
}
