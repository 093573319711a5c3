import type { Command } from 'commander';
import type { CliContext } from '../context.js';

export function registerFix(_program: Command, _ctx: CliContext): void {}
