import { Injectable, OnModuleInit } from "@nestjs/common";
import Redis from "ioredis";
import { decode } from "@acme/events";

@Injectable()
export class InboxService implements OnModuleInit {
  private readonly inbox = new Map<string, string[]>();
  private readonly subscriber = new Redis(process.env.REDIS_URL ?? "redis://localhost:6379");

  async onModuleInit(): Promise<void> {
    await this.subscriber.subscribe("orders.created");
    this.subscriber.on("message", (_channel: string, message: string) => {
      const { payload } = decode(message);
      const list = this.inbox.get(payload.user) ?? [];
      list.push(`order ${payload.id} received`);
      this.inbox.set(payload.user, list);
    });
  }

  messagesFor(user: string): string[] {
    return this.inbox.get(user) ?? [];
  }
}
