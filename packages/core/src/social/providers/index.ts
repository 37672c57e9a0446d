/**
 * @module
 * The named providers (docs/social.md#providers), by id. Each entry is a
 * provider module (`defineProvider`) whose config type is the id's entry in
 * `NamedProviderConfigs` (types/social.ts). A provider module is added here
 * with one import and one line.
 */
import type { NamedProviderConfigs, NamedProviderId, ProviderFactory } from '../../types/social.js'
import { apple } from './apple.js'
import { discord } from './discord.js'
import { dropbox } from './dropbox.js'
import { facebook } from './facebook.js'
import { github } from './github.js'
import { gitlab } from './gitlab.js'
import { google } from './google.js'
import { huggingface } from './huggingface.js'
import { kick } from './kick.js'
import { linkedin } from './linkedin.js'
import { microsoft } from './microsoft.js'
import { reddit } from './reddit.js'
import { roblox } from './roblox.js'
import { spotify } from './spotify.js'
import { tiktok } from './tiktok.js'
import { twitch } from './twitch.js'
import { twitter } from './twitter.js'
import { vk } from './vk.js'
import { zoom } from './zoom.js'

export type NamedProviders = { readonly [K in NamedProviderId]?: ProviderFactory<NamedProviderConfigs[K]> }

export const namedProviders: NamedProviders = {
  apple,
  discord,
  dropbox,
  facebook,
  github,
  gitlab,
  google,
  huggingface,
  kick,
  linkedin,
  microsoft,
  reddit,
  roblox,
  spotify,
  tiktok,
  twitch,
  twitter,
  vk,
  zoom,
}
