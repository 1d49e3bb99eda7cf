import Foundation
import RosterServerCore

/// The page's one script, an ES module served as `/assets/live.js`: it keeps a live page
/// current. The server's event stream (`/v1/events`) says when something changed and the page
/// fetches itself again (no polling); between changes it counts down to each schedule's next
/// handoff from the `data-until` instants the server rendered. Offline it says how old its data
/// is and hands off by itself from the plan the server put in the page (`OnCallPage.Plan`: the
/// answers GetOnDuty gives at each coming handoff). Text only ever goes in through
/// `textContent`; new content is the server's own escaped page.
enum LiveScript {
    /// What the script says, in the page's language: templates with `{1}`, `{2}` for its values,
    /// and a plural message as its forms by CLDR category (the script picks one with
    /// `Intl.PluralRules`). The page carries them as JSON (`WebPage.open`).
    static func words(_ words: Words) -> String { made[words.language] ?? "{}" }

    /// Each language's, made once: a live page carries it as it is. Kept as text, not `Data`:
    /// LeakSanitizer does not see the reference inside a `Data` held by a global (its enum
    /// keeps tag bits in the pointer), and called this table a leak at the fuzzer's exit.
    private static let made: [Language: String] = Dictionary(
        uniqueKeysWithValues: Language.allCases.map { ($0, make(Words[$0])) })

    private static func make(_ words: Words) -> String {
        let table: [String: Any] = [
            // The countdown to a handoff, whole: "in" takes its own case in some languages.
            "seconds": words("(in {1} s)"), "minutes": words("(in {1} min {2} s)"),
            "hours": words("(in {1} h {2} min)"), "days": words.pluralForms("(in {1} day)", "(in {1} days)"),
            "justNow": words("less than a minute ago"),
            "minutesAgo": words.pluralForms("{1} minute ago", "{1} minutes ago"),
            "hoursAgo": words.pluralForms("{1} hour ago", "{1} hours ago"),
            "daysAgo": words.pluralForms("{1} day ago", "{1} days ago"),
            "offline": words("No connection — showing data from {1}"),
            "offlineBeyond": words(
                "No connection — showing data from {1} (no plan kept beyond this: it may be out of date)"),
            "live": words("Live"), "nobody": words("Nobody is on duty."), "until": words("Until {1}"),
            "noChange": words("No change planned."), "next": words("Next"), "since": words("since {1}"),
            "from": words("from {1}"), "browserZone": words("Browser zone ({1})"),
        ]
        guard let json = try? JSONSerialization.data(withJSONObject: table, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: json, as: UTF8.self)
    }

    static let source = """
        const status = document.getElementById('status');
        const lang = document.documentElement.lang || 'en';
        const words = (() => {
          try {
            return JSON.parse(document.getElementById('words').textContent);
          } catch (error) {
            return {};
          }
        })();
        const plurals = new Intl.PluralRules(lang);

        // A message of the page's language, its {1}, {2} filled in; a plural one takes the form
        // of its first value.
        function say(key, ...values) {
          let text = words[key];
          if (text && typeof text === 'object') text = text[plurals.select(values[0])] || text.other;
          if (typeof text !== 'string') text = key;
          return text.replace(/\\{(\\d)\\}/g, (_, n) => String(values[Number(n) - 1]));
        }
        let refreshing = false;
        let again = false;
        let connected = false;
        let offline = false;

        function setStatus(text) {
          if (status && status.textContent !== text) status.textContent = text;
        }

        function remaining(ms) {
          const seconds = Math.max(0, Math.round(ms / 1000));
          if (seconds < 60) return say('seconds', seconds);
          const minutes = Math.floor(seconds / 60);
          if (minutes < 60) return say('minutes', minutes, String(seconds % 60).padStart(2, '0'));
          const hours = Math.floor(minutes / 60);
          if (hours < 48) return say('hours', hours, String(minutes % 60).padStart(2, '0'));
          return say('days', Math.floor(hours / 24));
        }

        function age(ms) {
          const minutes = Math.floor(Math.max(0, ms) / 60000);
          if (minutes < 1) return say('justNow');
          if (minutes < 120) return say('minutesAgo', minutes);
          const hours = Math.floor(minutes / 60);
          return hours < 48 ? say('hoursAgo', hours) : say('daysAgo', Math.floor(hours / 24));
        }

        function element(tag, className, text) {
          const made = document.createElement(tag);
          if (className) made.className = className;
          if (text !== undefined) made.textContent = text;
          return made;
        }

        function person(duty, when, people) {
          const entry = { ...(people[duty.id] || { name: duty.id, email: '', phone: '' }), ...duty };
          const item = element('li');
          const name = element('a', 'name', entry.name);
          name.href = `/people/${encodeURIComponent(entry.id)}`;
          item.append(name);
          if (entry.role) item.append(element('span', 'role', entry.role));
          item.append(element('span', 'when', say(when, entry.since)));
          if (entry.email) {
            const email = element('a', 'email', entry.email);
            email.href = `mailto:${entry.email}`;
            item.append(email);
          }
          if (entry.email && entry.phone) {
            const sep = element('span', 'sep', '·');
            sep.setAttribute('aria-hidden', 'true');
            item.append(' ', sep, ' ');
          }
          if (entry.phone) {
            const phone = element('a', 'phone', entry.phone);
            phone.href = `tel:${entry.phone.replace(/[^0-9+]/g, '')}`;
            item.append(phone);
          }
          return item;
        }

        // A schedule's section as the server draws it for `step`, with `following` as "Next".
        function drawStep(section, step, following, people) {
          for (const old of section.querySelectorAll('.on-duty, .nobody, .until, .next, h3')) old.remove();
          const parts = [];
          if (step.people.length === 0) {
            parts.push(element('p', 'nobody', say('nobody')));
          } else {
            const list = element('ul', 'on-duty');
            for (const entry of step.people) list.append(person(entry, 'since', people));
            parts.push(list);
          }
          if (step.until !== undefined && step.until !== null) {
            const until = element('p', 'until', say('until', step.untilLabel) + ' ');
            until.dataset.until = String(step.until);
            until.append(element('span', 'countdown'));
            parts.push(until);
            section.dataset.until = String(step.until);
          } else {
            parts.push(element('p', 'until', say('noChange')));
            delete section.dataset.until;
          }
          if (following && following.people.length > 0) {
            parts.push(element('h3', null, say('next')));
            const list = element('ul', 'next');
            for (const entry of following.people) list.append(person(entry, 'from', people));
            parts.push(list);
          }
          section.append(...parts);
        }

        // The plan the server put in the page (parsed again only when the page was refetched).
        let planBlock = null;
        let plan = null;
        function currentPlan() {
          const block = document.getElementById('plan');
          if (block !== planBlock) {
            planBlock = block;
            try {
              plan = block ? JSON.parse(block.textContent) : null;
            } catch (error) {
              plan = null;
            }
          }
          return plan;
        }

        // Offline, each schedule hands off by itself at the instants the plan says.
        function handOff(now) {
          const kept = currentPlan();
          let beyond = false;
          for (const section of document.querySelectorAll('section[data-schedule]')) {
            const until = section.querySelector('.until[data-until]');
            if (!until || Number(until.dataset.until) > now) continue;
            const steps = (kept && kept.schedules[section.dataset.schedule]) || [];
            let index = -1;
            for (let i = 0; i < steps.length; i++) if (steps[i].from <= now) index = i;
            const step = steps[index];
            if (index < 0 || (step.until !== undefined && step.until !== null && step.until <= now)) {
              beyond = true;
              continue;
            }
            drawStep(section, step, steps[index + 1], kept.people);
          }
          return beyond;
        }

        function tick() {
          const now = Date.now();
          const beyond = offline ? handOff(now) : false;
          for (const element of document.querySelectorAll('[data-until]')) {
            const countdown = element.querySelector('.countdown');
            if (countdown) countdown.textContent = remaining(Number(element.dataset.until) - now);
          }
          // The timeline's "now" line moves with the clock.
          for (const timeline of document.querySelectorAll('.timeline[data-from]')) {
            const from = Number(timeline.dataset.from), to = Number(timeline.dataset.to);
            const x = `${(Math.min(Math.max(now, from), to) - from) / (to - from) * 100}%`;
            for (const line of timeline.querySelectorAll('line.now')) {
              line.setAttribute('x1', x);
              line.setAttribute('x2', x);
            }
          }
          if (offline) {
            const main = document.querySelector('main[data-rendered]');
            const rendered = main ? Number(main.dataset.rendered) : now;
            setStatus(say(beyond ? 'offlineBeyond' : 'offline', age(now - rendered)));
          }
        }

        // "View in: Browser zone" links to this page in the browser's own zone.
        function offerBrowserZone() {
          const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
          for (const item of document.querySelectorAll('.browser-zone')) {
            const link = item.querySelector('a');
            if (!link || !zone) continue;
            const url = new URL(link.href);
            url.searchParams.set('tz', zone);
            link.href = url.pathname + url.search;
            link.textContent = say('browserZone', zone);
            item.hidden = false;
          }
        }

        async function refresh() {
          if (refreshing) {
            again = true;
            return;
          }
          refreshing = true;
          try {
            do {
              again = false;
              const response = await fetch(location.pathname + location.search, { cache: 'no-store', credentials: 'same-origin' });
              if (!response.ok) throw new Error(`HTTP ${response.status}`);
              const page = new DOMParser().parseFromString(await response.text(), 'text/html');
              const fresh = page.querySelector('main');
              const shown = document.querySelector('main');
              if (fresh && shown) shown.replaceWith(fresh);
              offerBrowserZone();
              tick();
            } while (again);
          } catch (error) {
            offline = true;
            tick();
          } finally {
            refreshing = false;
          }
        }

        const events = new EventSource('/v1/events');
        events.addEventListener('hello', () => {
          offline = false;
          setStatus(say('live'));
          // After a reconnection, changes may have been missed meanwhile.
          if (connected) refresh();
          connected = true;
        });
        for (const name of ['onduty', 'roster', 'resync']) events.addEventListener(name, refresh);
        events.addEventListener('error', () => {
          offline = true;
          tick();
        });

        // The service worker keeps the last copy of each page for when the server is unreachable;
        // once it controls this page, fetching the page again stores it.
        if ('serviceWorker' in navigator) {
          navigator.serviceWorker.register('/sw.js').catch(() => {});
          if (navigator.serviceWorker.controller) {
            refresh();
          } else {
            navigator.serviceWorker.addEventListener('controllerchange', () => refresh(), { once: true });
          }
        }
        offerBrowserZone();
        tick();
        setInterval(tick, 1000);

        """
}

/// `/sw.js`, the service worker (scope `/`): pages are fetched from the network first and the
/// last good copy of each is kept; when the network fails or the server answers 5xx (starting,
/// stopping, busy), the kept copy answers, and the page's script says how old it is. The API and the event stream are never kept. Signing out clears
/// what was kept (`Clear-Site-Data`). It also shows the notifications Web Push brings
/// (docs/PUSH.md): the payload's `title`, `body` and `topic` (a newer notice of one topic
/// replaces the older), and a tap opens the payload's `url` (a path of this app only; anything
/// else opens "My shifts") in a window of the app, or focuses one already there.
enum ServiceWorkerScript {
    static let source = """
        const KEPT = 'roster-pages-v1';

        self.addEventListener('install', (event) => {
          event.waitUntil(caches.open(KEPT).then((kept) => kept.addAll(['/assets/app.css', '/assets/live.js'])));
          self.skipWaiting();
        });

        self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

        self.addEventListener('fetch', (event) => {
          const request = event.request;
          const url = new URL(request.url);
          if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/v1/')) return;
          event.respondWith((async () => {
            const kept = await caches.open(KEPT);
            try {
              const response = await fetch(request);
              if (response.ok && response.type === 'basic') await kept.put(request, response.clone());
              // A server that is starting, stopping or overloaded answers 5xx: the kept copy is
              // the better answer, and the page says how old it is.
              if (response.status >= 500) {
                const copy = await kept.match(request);
                if (copy) return copy;
              }
              return response;
            } catch (error) {
              const copy = await kept.match(request);
              if (copy) return copy;
              return new Response('<!doctype html><title>No connection</title><link rel="stylesheet" href="/assets/app.css">' +
                '<main id="main"><h1>No connection</h1><p>The server cannot be reached and this page was not kept from an earlier visit.</p></main>',
                { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
            }
          })());
        });

        // Only a path of this app is opened: a payload cannot send the person elsewhere.
        const target = (url) => (typeof url === 'string' && url.startsWith('/') && !url.startsWith('//')) ? url : '/me';

        // Pushes come at least once: a message whose id was shown already is a second copy
        // (the server died between sending it and recording that it was sent). It is not shown
        // again: at most it silently replaces itself while still on screen.
        const SEEN = 'roster-push-seen';
        const seenBefore = async (id) => {
          if (typeof id !== 'string' || !id) return false;
          const cache = await caches.open(SEEN);
          const kept = await cache.match('/seen');
          const ids = kept ? await kept.json() : [];
          if (ids.includes(id)) return true;
          ids.push(id);
          await cache.put('/seen', new Response(JSON.stringify(ids.slice(-64))));
          return false;
        };

        self.addEventListener('push', (event) => {
          let notice = {};
          try { notice = event.data ? event.data.json() : {}; } catch (error) { notice = { body: event.data.text() }; }
          const title = typeof notice.title === 'string' && notice.title ? notice.title : 'Roster';
          const tag = typeof notice.topic === 'string' ? notice.topic : undefined;
          // Every notice is about the person's own duty and stays until they act on it: where
          // the browser draws notices itself (chromium on Linux without a notification daemon),
          // one that may close on its own is gone from the device after its popup's 25 s.
          const options = {
            body: typeof notice.body === 'string' ? notice.body : '',
            tag, icon: '/assets/icon-192.png', requireInteraction: true,
            data: { url: target(notice.url), id: notice.id },
          };
          event.waitUntil((async () => {
            if (await seenBefore(notice.id)) {
              const shown = await self.registration.getNotifications(tag ? { tag } : {});
              if (shown.some((note) => note.data && note.data.id === notice.id)) {
                await self.registration.showNotification(title, { ...options, silent: true });
              }
              return;
            }
            await self.registration.showNotification(title, options);
          })());
        });

        self.addEventListener('notificationclick', (event) => {
          event.notification.close();
          const url = new URL(target(event.notification.data && event.notification.data.url), self.location.origin).href;
          event.waitUntil((async () => {
            const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
            const there = open.find((client) => client.url === url);
            if (there) return there.focus();
            return self.clients.openWindow(url);
          })());
        });

        """
}
