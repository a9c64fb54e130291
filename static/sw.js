// The service worker: shows push notifications and opens their page when tapped.
self.addEventListener("push", (event) => {
  let data = { title: "Lambda", body: "You have a new notification.", url: "/notifications" };
  try {
    data = { ...data, ...event.data.json() };
  } catch (_) { /* keep the discreet default */ }
  event.waitUntil(
    self.registration.showNotification(data.title, {
      body: data.body,
      data: { url: data.url },
      icon: "/static/icon.svg",
      // One notification per tag on the device: a conversation's later push replaces its earlier one.
      ...(data.tag ? { tag: String(data.tag) } : {}),
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? "/notifications", self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil((async () => {
    const wins = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const w of wins) {
      if (new URL(w.url).origin === url.origin && "focus" in w) {
        await w.navigate(url.href);
        return w.focus();
      }
    }
    return self.clients.openWindow(url.href);
  })());
});
