/// The plan that puts a whole declared state back on a head unit that has nothing of the app,
/// and the managers' updates to accept once it succeeded.
public struct SDLResumption: Sendable, Hashable {
    public var plan: SDLManagerPlan
    public var screen: SDLScreenManager.Update?
    public var media: SDLMediaManager.Update?
    public var menu: SDLMenuManager.Update?
    public var voiceCommands: SDLMenuManager.Update?
}

extension SDLManagers {
    /// Forgets what the head unit had (all managers' ``SDLScreenManager/headUnitReset()``; the
    /// choice sets are created again when next needed) and plans the declared state from
    /// nothing: every dynamic image first (the ensure-file steps, in order of first use), then
    /// SetDisplayLayout or the template in the Show, the Show, the media button subscriptions and
    /// clock, the main menu layout and the menu, the voice commands.
    ///
    /// With `headUnitResumed` (the registration resumed the app's data, docs/protocol.md §k) the
    /// head unit put back the commands, submenus, choice sets, global properties and button
    /// subscriptions itself: only what SDL does not resume is planned (the Show, the template,
    /// the media clock, the images).
    public mutating func resumptionPlan(
        _ declared: SDLDeclaredState,
        profile: SDLDisplayProfile,
        maximumMenuDepth: Int,
        headUnitResumed: Bool = false
    ) throws(SDLManagerError) -> SDLResumption {
        screen.headUnitReset()
        media.headUnitReset()
        if !headUnitResumed {
            menu.headUnitReset()
            choiceSets.headUnitReset()
        }
        var files = SDLManagerPlan()
        var requests = SDLManagerPlan()
        func add(_ plan: SDLManagerPlan) {
            plan.files.forEach { files.ensureFile($0) }
            plan.requests.forEach { requests.append($0) }
            requests.warnings += plan.warnings
        }
        var result = SDLResumption(plan: SDLManagerPlan())
        if declared.screen != nil || declared.media != nil {
            let shown = declared.screen ?? SDLScreen()
            let knownFiles = Set(shown.dynamicFiles + [declared.media?.artwork].compactMap(SDLImageName.dynamicFile))
            let update = try screen.plan(shown, media: declared.media, profile: profile, knownFiles: knownFiles)
            add(update.plan)
            result.screen = update
        }
        if let declaredMedia = declared.media {
            let update = media.plan(declaredMedia)
            add(update.plan)
            result.media = update
        }
        if let declaredMenu = declared.menu, !headUnitResumed {
            let update = try menu.plan(declaredMenu, profile: profile, maximumDepth: maximumMenuDepth)
            add(update.plan)
            result.menu = update
        }
        if !declared.voiceCommands.isEmpty && !headUnitResumed {
            let update = try menu.plan(voiceCommands: declared.voiceCommands)
            add(update.plan)
            result.voiceCommands = update
        }
        files.append(contentsOf: requests)
        result.plan = files
        return result
    }

    /// Records that the head unit carried out a resumption plan.
    public mutating func accept(_ resumption: SDLResumption) {
        if let update = resumption.screen { screen.accept(update) }
        if let update = resumption.media { media.accept(update) }
        if let update = resumption.menu { menu.accept(update) }
        if let update = resumption.voiceCommands { menu.accept(update) }
    }
}
