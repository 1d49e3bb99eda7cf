/// `/assets/push.js`, on `/me/push` (docs/PUSH.md): subscribes this browser with PushManager
/// and the tenant's VAPID key, and posts the subscription to the page's form. It shows the
/// button only where the browser can subscribe, and subscribes again, once, when the key was
/// rotated since (a push service refuses a message signed by another key).
enum PushScript {
    static let source = #"""
        const form = document.getElementById('push-subscribe');
        const status = document.getElementById('push-status');

        function keyBytes(text) {
          const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - text.length % 4) % 4);
          return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        }

        function sameKey(subscription, key) {
          const used = subscription.options && subscription.options.applicationServerKey;
          if (!used) return true;
          const bytes = new Uint8Array(used);
          return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
        }

        function deviceName() {
          const agent = navigator.userAgent;
          const browser = /Firefox\//.test(agent) ? 'Firefox' : /Edg\//.test(agent) ? 'Edge'
            : /Chrome\//.test(agent) ? 'Chrome' : /Safari\//.test(agent) ? 'Safari' : 'Browser';
          const system = /Android/.test(agent) ? 'Android' : /iPhone|iPad/.test(agent) ? 'iOS'
            : /Mac OS X/.test(agent) ? 'macOS' : /Windows/.test(agent) ? 'Windows' : /Linux/.test(agent) ? 'Linux' : '';
          return system ? browser + ' on ' + system : browser;
        }

        async function post(subscription) {
          const json = subscription.toJSON();
          const body = new URLSearchParams({
            csrf: form.elements.csrf.value, endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth,
            label: deviceName(),
          });
          const answer = await fetch(form.action, { method: 'POST', body, credentials: 'same-origin' });
          if (!answer.ok) {
            const page = new DOMParser().parseFromString(await answer.text(), 'text/html');
            throw new Error((page.querySelector('main p') || page.body).textContent.trim());
          }
        }

        async function subscribe(registration, key) {
          let subscription = await registration.pushManager.getSubscription();
          if (subscription && !sameKey(subscription, key)) {
            await subscription.unsubscribe();
            subscription = null;
          }
          return subscription || registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
        }

        if (form && 'serviceWorker' in navigator && 'PushManager' in window) {
          const key = keyBytes(form.dataset.key);
          form.hidden = false;
          navigator.serviceWorker.register('/sw.js').catch(() => {});
          form.addEventListener('submit', async (event) => {
            event.preventDefault();
            try {
              if (await Notification.requestPermission() !== 'granted') {
                status.textContent = form.dataset.denied;
                return;
              }
              await post(await subscribe(await navigator.serviceWorker.ready, key));
              location.reload();
            } catch (error) {
              status.textContent = form.dataset.failed + ' ' + error.message;
            }
          });
          navigator.serviceWorker.ready.then(async (registration) => {
            const subscription = await registration.pushManager.getSubscription();
            if (subscription && !sameKey(subscription, key) && Notification.permission === 'granted') {
              await post(await subscribe(registration, key));
              status.textContent = form.dataset.renewed;
            }
          }).catch(() => {});
        }
        """#
}
