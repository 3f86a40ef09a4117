// A scrobble's device class: the User-Agent when it says something, else the app's name.
import { expect, test } from 'bun:test'
import { appDevice } from '~/server/subsonic/app-device'

test('phone apps are mobile and desktop apps desktop when the User-Agent says nothing', () => {
  for (const name of ['DSub', 'Symfonium', 'substreamer', 'Ultrasonic', 'play:Sub', 'Amperfy', 'Tempo']) expect(appDevice(name, 'okhttp/4.12.0')).toBe('mobile')
  for (const name of ['Feishin', 'Supersonic', 'Sonixd', 'Sublime Music']) expect(appDevice(name, 'Dart/3.4 (dart:io)')).toBe('desktop')
})

test('a User-Agent that names a device wins; an unknown app stays unknown', () => {
  expect(appDevice('Feishin', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe('mobile')
  expect(appDevice('my-script', 'python-requests/2.31')).toBe('unknown')
  expect(appDevice(null, undefined)).toBe('unknown')
  // A name that only starts like a known app's is not that app.
  expect(appDevice('tempolib-test', 'curl/8.0')).toBe('unknown')
})
