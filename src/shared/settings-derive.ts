/**
 * Everything that follows from SETTINGS_FIELDS: the types and schemas each process checks its
 * settings with, and the defaults. Nothing here names a setting; settings-schema.ts does.
 */
import { z } from 'zod';
import { HOST_GROUPS, SETTINGS_FIELDS, type FieldSpec, type HostGroup, type PlainField, type SecretField, type SettingsFields } from './settings-schema';

type F = SettingsFields;
type Name = keyof F;
type Strict<Shape extends z.ZodRawShape> = z.ZodObject<Shape, z.core.$strict>;
type UnionToIntersection<U> = (U extends unknown ? (each: U) => void : never) extends (all: infer I) => void ? I : never;

export type SecretName = { [K in Name]: F[K] extends SecretField ? K : never }[Name];
export type PlainName = Exclude<Name, SecretName>;
type Value<K extends Name> = z.output<F[K]['schema']>;
type HostOf<K extends Name> = F[K]['host'];

// ---- What the renderer may see: every field but the secrets, each secret's view instead, and the variables on top.

type PlainShape = { [K in PlainName]: F[K]['schema'] };
type ViewShape = UnionToIntersection<{ [K in SecretName]: F[K]['secret']['view'] }[SecretName]>;
const patchNames = z.enum(Object.keys(SETTINGS_FIELDS) as [Name, ...Name[]]);
/** Names of settings an environment variable overrides right now (DESKPILOT_MODEL → `model`), each with its variable. */
interface EnvInfo {
  /** The UI shows these read-only. */
  envOverrides: Name[];
  /** So the window can name the variable. */
  envVariables: Partial<Record<Name, string>>;
}

/** One field's spec, for the loops below; the types above carry each field's own. */
const specs = Object.entries(SETTINGS_FIELDS) as [Name, FieldSpec][];

function isSecret(spec: FieldSpec): spec is SecretField {
  return 'secret' in spec;
}

export const SECRET_NAMES: readonly SecretName[] = specs.filter(([, spec]) => isSecret(spec)).map(([name]) => name as SecretName);
export const PLAIN_NAMES: readonly PlainName[] = specs.filter(([, spec]) => !isSecret(spec)).map(([name]) => name as PlainName);

// ---- The fields the settings form shows by their type (settings-schema.ts's `window`).

export type WindowName = { [K in PlainName]: F[K] extends { window: { section: string } } ? K : never }[PlainName];

/** Each field the form shows by its type, in declaration order, with its section and schema. */
export const WINDOW_FIELDS = specs.flatMap(([name, spec]) =>
  !isSecret(spec) && spec.window !== undefined ? [{ name: name as WindowName, section: spec.window.section, schema: spec.schema }] : [],
);

/** The settings as main hands them to the renderer; main checks its own output against it in tests. */
export const PUBLIC_SETTINGS_SCHEMA = z.strictObject({
  ...Object.fromEntries(specs.flatMap(([name, spec]) => (isSecret(spec) ? Object.entries(spec.secret.view) : [[name, spec.schema]]))),
  envOverrides: z.array(patchNames),
  envVariables: z.partialRecord(patchNames, z.string()),
}) as unknown as z.ZodType<PublicSettings>;

/** What the renderer may know of the secrets instead of their values. */
export type SecretViews = z.output<Strict<ViewShape>>;

/** The user's settings as the renderer may see them: never a secret's value. */
export type PublicSettings = z.output<Strict<PlainShape & ViewShape>> & EnvInfo;

// ---- A change from the window: any field, each checked; `null` deletes a stored secret.

/** What `settings:update` accepts: main rejects an unknown key or a wrong type before anything is stored. */
export const SETTINGS_PATCH_SCHEMA = z.strictObject(
  Object.fromEntries(specs.map(([name, spec]) => [name, ('input' in spec ? (spec.input ?? spec.schema) : spec.schema).optional()])),
) as unknown as Strict<{ [K in Name]: z.ZodOptional<F[K]['schema']> }>;

/** A change as the renderer writes it: an omitted field stays as it is. */
export type SettingsPatch = { [K in Name]?: Value<K> };
/** A patch as zod parses it: an omitted field may also arrive as undefined. */
export type SettingsPatchInput = z.output<typeof SETTINGS_PATCH_SCHEMA>;

// ---- What main stores: every plain field as is, each secret encrypted as `<name>Encrypted`.

export type StoredValues = { [K in PlainName]: Value<K> } & { [K in SecretName as `${K}Encrypted`]: string };

/** A JSON schema as electron-store reads it (conf's ajv, draft 2020-12). */
export type JsonSchema = Record<string, unknown>;

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _draft, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' });
  return rest;
}

/** electron-store's schema for the settings, one entry per stored key. */
export const STORE_JSON_SCHEMA: Record<keyof StoredValues, JsonSchema> = Object.fromEntries(
  specs.map(([name, spec]) =>
    isSecret(spec) ? [`${name}Encrypted`, { type: 'string', maxLength: spec.secret.storedMax }] : [name, jsonSchemaOf(spec.schema)],
  ),
) as Record<keyof StoredValues, JsonSchema>;

export type PlainValues = { [K in PlainName]: Value<K> };

/** The value of every plain field before the user chose one, on this OS. */
export function settingsDefaults(platform: string): PlainValues {
  return Object.fromEntries(
    specs.flatMap(([name, spec]) => {
      if (isSecret(spec)) return [];
      const { default: value } = spec as PlainField;
      return [[name, typeof value === 'function' ? (value as (platform: string) => unknown)(platform) : value]];
    }),
  ) as PlainValues;
}

/** What a new settings file holds: the defaults, and no secret. */
export function storedDefaults(platform: string): StoredValues {
  return { ...settingsDefaults(platform), ...Object.fromEntries(SECRET_NAMES.map((name) => [`${name}Encrypted`, ''])) } as StoredValues;
}

// ---- What main sends the automation host: the fields marked `host`, grouped, with main's resolved values.

type HostSchemaOf<K extends Name> = HostOf<K> extends { schema: infer S extends z.ZodType } ? S : F[K]['schema'];
type FlatHostName = { [K in Name]: HostOf<K> extends true | 'resolved' | { schema: z.ZodType } ? K : never }[Name];
/** Fields main works out before sending (a variable on top, a language resolved, a secret decrypted). */
export type ResolvedName = { [K in Name]: HostOf<K> extends 'resolved' | { schema: z.ZodType } ? K : never }[Name];
type GroupShape<G extends HostGroup> = { [K in Name as HostOf<K> extends { group: G; as: infer A extends string } ? A : never]: F[K]['schema'] };
type HostShape = { [K in FlatHostName]: HostSchemaOf<K> } & { [G in HostGroup]: Strict<GroupShape<G>> };

function hostSchemaOf(spec: FieldSpec): z.ZodType | undefined {
  const { host } = spec;
  if (host === undefined) return undefined;
  if (host === true || host === 'resolved') return spec.schema;
  return 'schema' in host ? host.schema : undefined;
}

function groupOf(spec: FieldSpec): { group: HostGroup; as: string } | undefined {
  return typeof spec.host === 'object' && 'group' in spec.host ? spec.host : undefined;
}

function groupShape(group: HostGroup): z.ZodRawShape {
  return Object.fromEntries(specs.flatMap(([, spec]) => (groupOf(spec)?.group === group ? [[groupOf(spec)?.as, spec.schema]] : [])));
}

/** The settings as the host receives them; the decrypted secrets only ever travel main → host. */
export const HOST_SETTINGS_SCHEMA = z.strictObject({
  ...Object.fromEntries(specs.flatMap(([name, spec]) => (hostSchemaOf(spec) === undefined ? [] : [[name, hostSchemaOf(spec)]]))),
  ...Object.fromEntries(HOST_GROUPS.map((group) => [group, z.strictObject(groupShape(group))])),
}) as unknown as Strict<HostShape>;

export type HostSettings = z.output<typeof HOST_SETTINGS_SCHEMA>;
export type HostResolved = { [K in ResolvedName]: z.output<HostSchemaOf<K>> };

/** The host's settings from the stored plain values and main's resolved ones; an undefined value is left out. */
export function hostSettingsOf(values: PlainValues, resolved: HostResolved): HostSettings {
  const flat: Record<string, unknown> = { ...values, ...resolved };
  const settings: Record<string, unknown> = Object.fromEntries(HOST_GROUPS.map((group) => [group, {}]));
  for (const [name, spec] of specs) {
    const group = groupOf(spec);
    const value = flat[name];
    if (group !== undefined) (settings[group.group] as Record<string, unknown>)[group.as] = value;
    else if (hostSchemaOf(spec) !== undefined && value !== undefined) settings[name] = value;
  }
  return settings as HostSettings;
}

/** What a host has before main's first settings message: every default, the language English. */
export const HOST_SETTINGS_DEFAULTS: HostSettings = hostSettingsOf(
  settingsDefaults(''),
  Object.fromEntries(
    specs.flatMap(([name, spec]) => {
      const { host } = spec;
      if (host === 'resolved') return [[name, (spec as PlainField).default]];
      return typeof host === 'object' && 'schema' in host ? [[name, host.default]] : [];
    }),
  ) as HostResolved,
);
