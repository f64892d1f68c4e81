import base from "@gauntlet/eslint-config";

export default base;
