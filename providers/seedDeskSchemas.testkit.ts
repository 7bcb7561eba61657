/**
 * The two `seed_desk` parameter schemas the rules are tested with (issue 35), as data:
 * - `UNION_SCHEMA`: the schema as registered before issue 35, a root `oneOf` of four object
 *   branches with no root `type` (`z.discriminatedUnion` written out by `z.toJSONSchema`): the
 *   schema the real providers refused. A copy, so these tests keep the refused input once the
 *   registered schema is flat.
 * - `FLAT_SCHEMA`: one `type: "object"` with `op` a string enum, the shape issue 35 asks for.
 */
export const UNION_SCHEMA: Readonly<Record<string, unknown>> = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "oneOf": [
    {
      "type": "object",
      "properties": {
        "op": {
          "type": "string",
          "const": "discover",
          "description": "Explain the operations, what act needs, and the current revision."
        }
      },
      "required": [
        "op"
      ],
      "additionalProperties": false
    },
    {
      "type": "object",
      "properties": {
        "op": {
          "type": "string",
          "const": "query",
          "description": "List every item with its available and reserved packets, and the revision."
        },
        "family": {
          "type": "string",
          "description": "Only items of this exact family (basil, bean, marigold)."
        }
      },
      "required": [
        "op"
      ],
      "additionalProperties": false
    },
    {
      "type": "object",
      "properties": {
        "op": {
          "type": "string",
          "const": "inspect",
          "description": "Show one item by its exact id."
        },
        "id": {
          "type": "string",
          "description": "An exact item id from a query result."
        }
      },
      "required": [
        "op",
        "id"
      ],
      "additionalProperties": false
    },
    {
      "type": "object",
      "properties": {
        "op": {
          "type": "string",
          "const": "act",
          "description": "Reserve or release packets; needs the human grant and the latest revision."
        },
        "action": {
          "type": "string",
          "enum": [
            "reserve",
            "release"
          ]
        },
        "id": {
          "type": "string",
          "description": "An exact item id from a query result."
        },
        "packets": {
          "type": "number",
          "description": "A positive whole number of packets."
        },
        "expectedRevision": {
          "type": "string",
          "description": "The revision returned by your latest query or act, copied exactly."
        }
      },
      "required": [
        "op",
        "action",
        "id",
        "packets",
        "expectedRevision"
      ],
      "additionalProperties": false
    }
  ]
};

export const FLAT_SCHEMA: Readonly<Record<string, unknown>> = {
  "type": "object",
  "properties": {
    "op": {
      "type": "string",
      "enum": [
        "discover",
        "query",
        "inspect",
        "act"
      ],
      "description": "What to do: discover, query, inspect or act."
    },
    "family": {
      "type": "string",
      "description": "query only: items of this exact family."
    },
    "id": {
      "type": "string",
      "description": "inspect and act: an exact item id from a query result."
    },
    "action": {
      "type": "string",
      "enum": [
        "reserve",
        "release"
      ],
      "description": "act only."
    },
    "packets": {
      "type": "number",
      "description": "act only: a positive whole number of packets."
    },
    "expectedRevision": {
      "type": "string",
      "description": "act only: the revision from your latest query or act."
    }
  },
  "required": [
    "op"
  ],
  "additionalProperties": false
};

export const DESCRIPTION = 'Reserve and release fictional seed packets on the current branch of this conversation.';
