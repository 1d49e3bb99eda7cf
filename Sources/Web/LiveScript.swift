/// The page's one script, an ES module served as `/assets/live.js`: it keeps "On call now"
/// current. The server's event stream (`/v1/events`) says when something changed and the page
/// fetches itself again (no polling); between changes it counts down to each schedule's next
/// handoff from the `data-until` instants the server rendered. Text only ever goes in through
/// `textContent`; new content is the server's own escaped page.
enum LiveScript {
    static let source = """
        const status = document.getElementById('status');
        let refreshing = false;
        let again = false;
        let connected = false;

        function setStatus(text) {
          if (status) status.textContent = text;
        }

        function remaining(ms) {
          const seconds = Math.max(0, Math.round(ms / 1000));
          if (seconds < 60) return `${seconds} s`;
          const minutes = Math.floor(seconds / 60);
          if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
          const hours = Math.floor(minutes / 60);
          if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
          return `${Math.floor(hours / 24)} days`;
        }

        function tick() {
          const now = Date.now();
          for (const element of document.querySelectorAll('[data-until]')) {
            const countdown = element.querySelector('.countdown');
            if (countdown) countdown.textContent = `(in ${remaining(Number(element.dataset.until) - now)})`;
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
            link.textContent = `Browser zone (${zone})`;
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
            setStatus('No connection — showing the last data received');
          } finally {
            refreshing = false;
          }
        }

        const events = new EventSource('/v1/events');
        events.addEventListener('hello', () => {
          setStatus('Live');
          // After a reconnection, changes may have been missed meanwhile.
          if (connected) refresh();
          connected = true;
        });
        for (const name of ['onduty', 'roster', 'resync']) events.addEventListener(name, refresh);
        events.addEventListener('error', () => setStatus('No connection — reconnecting…'));
        offerBrowserZone();
        tick();
        setInterval(tick, 1000);

        """
}
