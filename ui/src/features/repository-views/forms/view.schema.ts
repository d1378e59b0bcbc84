import { z } from 'zod';

/** The Select's value for "no pinned dialect" (the API's `dialect: null`). */
export const DETECT = 'DETECT';
export const DIALECTS = ['FEDORA_4', 'FEDORA_5', 'FEDORA_6'] as const;
export type Dialect = (typeof DIALECTS)[number];
export type ViewType = 'FEDORA' | 'LDP';

/** "" (none) or 2–255 characters, as repository-view.schema.ts says for username and password. */
const credential = (property: 'username' | 'password') =>
  z
    .string()
    .max(255, `A repository view's ${property} must be at most 255 characters long`)
    .refine(
      (text) => text === '' || text.length >= 2,
      `A repository view's ${property} must be at least 2 characters long`,
    );

/** An absolute http(s) URL without credentials, query or fragment (the service's rule). */
const rootUri = z
  .string()
  .trim()
  .min(1, 'A repository view requires a URI')
  .max(2000, "A repository view's URI must be at most 2000 characters long")
  .superRefine((text, context) => {
    if (text === '') return;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      context.addIssue({ code: 'custom', message: 'A repository view requires a valid URI' });
      return;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '')
      context.addIssue({ code: 'custom', message: 'A repository view requires a valid URI' });
    else if (url.username !== '' || url.password !== '')
      context.addIssue({
        code: 'custom',
        message: "A repository view's URI must not contain credentials; use username and password",
      });
  });

/**
 * The create/edit form's values as the fields hold them: ids of schemas and curators as strings (the
 * MultiSelects' values), the dialect as DETECT or a Fedora line; `password` empty on edit keeps the stored
 * one unless `clearPassword` is ticked.
 */
export const viewFormSchema = z.object({
  type: z.enum(['FEDORA', 'LDP'], 'Choose the repository type'),
  name: z
    .string()
    .trim()
    .min(2, "A repository view's name must be at least 2 characters long")
    .max(255, "A repository view's name must be at most 255 characters long"),
  rootUri,
  username: credential('username'),
  password: credential('password'),
  clearPassword: z.boolean(),
  dialect: z.enum([DETECT, ...DIALECTS]),
  schemas: z.array(z.string().regex(/^\d+$/)),
  curators: z.array(z.string().regex(/^\d+$/)),
});

export type ViewFormValues = z.infer<typeof viewFormSchema>;

export const emptyViewForm: ViewFormValues = {
  type: 'FEDORA',
  name: '',
  rootUri: '',
  username: '',
  password: '',
  clearPassword: false,
  dialect: DETECT,
  schemas: [],
  curators: [],
};

/** The request body of POST/PUT /repository-view (and, without type and name, of the verification). */
export interface ViewBody {
  id?: number;
  type: ViewType;
  name: string;
  rootUri: string;
  username: string | null;
  password: string | null;
  dialect: Dialect | null;
  schemas: { id: number }[];
  curators?: { id: number }[];
}

/**
 * The body for the API. On edit (`id` given) an empty password is null, which keeps the stored one; ""
 * clears it only when asked. `curators` is sent only by an admin (absent keeps them). Only FEDORA has a
 * dialect.
 */
export function toViewBody(values: ViewFormValues, { id, admin }: { id?: number; admin: boolean }): ViewBody {
  const password =
    id === undefined
      ? values.password === ''
        ? null
        : values.password
      : values.clearPassword
        ? ''
        : values.password === ''
          ? null
          : values.password;
  return {
    ...(id === undefined ? {} : { id }),
    type: values.type,
    name: values.name.trim(),
    rootUri: values.rootUri.trim(),
    username: values.username === '' ? null : values.username,
    password,
    dialect: values.type === 'FEDORA' && values.dialect !== DETECT ? values.dialect : null,
    schemas: values.schemas.map((value) => ({ id: Number(value) })),
    ...(admin ? { curators: values.curators.map((value) => ({ id: Number(value) })) } : {}),
  };
}

/** The form's values for a stored view (its password is never answered: the field starts empty). */
export function viewFormValuesOf(view: {
  type: ViewType;
  name: string;
  rootUri: string;
  username?: string | null;
  dialect?: Dialect | null;
  schemas?: readonly { id: number }[] | null;
  curators?: readonly { id: number }[] | null;
}): ViewFormValues {
  return {
    type: view.type,
    name: view.name,
    rootUri: view.rootUri,
    username: view.username ?? '',
    password: '',
    clearPassword: false,
    dialect: view.dialect ?? DETECT,
    schemas: (view.schemas ?? []).map((schema) => String(schema.id)),
    curators: (view.curators ?? []).map((user) => String(user.id)),
  };
}

/** The form fields an INVALID answer's categories can name. */
const FORM_FIELDS = ['type', 'name', 'rootUri', 'username', 'password', 'dialect', 'schemas', 'curators'];

/**
 * An INVALID answer's ValidationResults messages split into what goes on a field (a category naming
 * one; a business message about the name, such as a duplicate) and what the form shows above itself.
 */
export function serverErrorsOf(messages: Readonly<Record<string, Readonly<Record<string, string>>>>): {
  fields: Record<string, string>;
  general: string[];
} {
  const fields: Record<string, string> = {};
  const general: string[] = [];
  for (const [category, byRule] of Object.entries(messages)) {
    const texts = Object.values(byRule);
    if (FORM_FIELDS.includes(category)) {
      fields[category] = texts.join('; ');
      continue;
    }
    for (const text of texts.flatMap((joined) => joined.split('; '))) {
      if (text.includes(' with name of '))
        fields.name = fields.name === undefined ? text : `${fields.name}; ${text}`;
      else general.push(text);
    }
  }
  return { fields, general };
}

/** What the verification steps send: where the view points and how to sign in (type in the path). */
export type VerificationBody = Pick<ViewBody, 'id' | 'rootUri' | 'username' | 'password' | 'dialect'>;
