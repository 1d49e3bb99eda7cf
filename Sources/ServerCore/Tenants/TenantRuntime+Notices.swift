import NIOConcurrencyHelpers
import NIOCore
import RosterDomain
import RosterProtocol
import RosterStore

// Notices kept for subscribers that resume, and progress bookmarks.

extension TenantRuntime {
    /// How many published notices a tenant keeps in memory for subscribers that resume.
    package static let keptNotices = 1_000

    /// The notices published before this start (from the store).
    package func restoreNotices(_ notices: [PublishedNotice]) {
        inner.withLockedValue { inner in
            for notice in notices.suffix(Self.keptNotices) { inner.notices.append(notice) }
            inner.noticeSequence = max(inner.noticeSequence, notices.last?.sequence ?? 0)
        }
    }

    /// Notices that fell due, in sequence order: kept, and pushed to every loop's subscribers,
    /// under the lock (so that a subscription made meanwhile either replays them or gets them).
    package func publishNotices(_ notices: [PublishedNotice]) {
        inner.withLockedValue { inner in
            for notice in notices where notice.sequence > inner.noticeSequence {
                inner.notices.append(notice)
                while inner.notices.count > Self.keptNotices { inner.notices.removeFirst() }
                inner.noticeSequence = notice.sequence
                var push = NoticePush(notice: notice, epoch: inner.epoch)
                push.sharedFrame = PushEncoding.frame(.notice(Roster_V1_Notice(notice, epoch: inner.epoch)))
                let published = push
                for fanout in fanouts { fanout.loop.execute { fanout.deliver(published) } }
            }
        }
    }

    // MARK: Progress bookmarks

    package func sendProgress(idleFor interval: TimeAmount) {
        let (epoch, revision) = inner.withLockedValue { ($0.epoch, $0.revision) }
        for fanout in fanouts {
            fanout.loop.execute { fanout.sendProgress(epoch: epoch, revision: revision, idleFor: interval) }
        }
    }
}
