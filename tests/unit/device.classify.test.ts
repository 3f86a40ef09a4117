import { describe, expect, test } from 'bun:test'
import { classifyDevice, type DeviceType } from '~/shared/player/device'

// Real User-Agent strings as these devices send them.
const cases: Array<[DeviceType, string]> = [
  ['smart-tv', 'Mozilla/5.0 (SMART-TV; LINUX; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) 76.0.3809.146/6.0 TV Safari/537.36'],
  ['smart-tv', 'Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.79 Safari/537.36 WebAppManager'],
  ['smart-tv', 'Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/84.0.4147.125 Safari/537.36 CrKey/1.54.250320'],
  [
    'smart-tv',
    'Mozilla/5.0 (Linux; Android 9; AFTMM Build/PS7233; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/98.0.4758.101 Mobile Safari/537.36',
  ],
  ['smart-tv', 'Roku/DVP-9.10 (519.10E04111A)'],
  ['smart-tv', 'AppleTV11,1/11.1'],
  [
    'smart-tv',
    'Mozilla/5.0 (Linux; Android 12; BRAVIA 4K VH2 Build/STT1.230104.001) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.196 Safari/537.36',
  ],
  ['speaker', 'AlexaMediaPlayer/2.1.4676.0 (Linux;Android 5.1.1) ExoPlayerLib/1.5.9'],
  ['speaker', 'Linux UPnP/1.0 Sonos/63.2-88230 (ZPS13)'],
  ['speaker', 'Mozilla/5.0 (Linux; Android 6.0.1; Google Home Build/MTC20L) CrKey/1.36.159268'],
  ['speaker', 'AppleCoreMedia/1.0.0.20L563 (HomePod; U; CPU OS 16_5 like Mac OS X; en_us)'],
  ['mobile', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'],
  ['mobile', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'],
  ['mobile', 'Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0'],
  ['tablet', 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'],
  ['tablet', 'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'],
  ['tablet', 'Mozilla/5.0 (Linux; Android 11; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/124.2.4 like Chrome/124.0.6367.219 Safari/537.36'],
  ['desktop', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'],
  ['desktop', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15'],
  ['desktop', 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0'],
  ['desktop', 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'],
  ['unknown', 'curl/8.5.0'],
  ['unknown', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
  ['unknown', ''],
]

describe('device class from the User-Agent', () => {
  for (const [expected, ua] of cases) {
    test(`${expected}: ${ua.slice(0, 60) || '(empty)'}`, () => {
      expect(classifyDevice(ua)).toBe(expected)
    })
  }
  test('null and undefined are unknown', () => {
    expect(classifyDevice(null)).toBe('unknown')
    expect(classifyDevice(undefined)).toBe('unknown')
  })
})
